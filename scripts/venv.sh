# Sourced by scripts/run and scripts/test: make .venv and install a
# requirements file into it, only when that file (or one it includes) changed.
#   ensure_venv requirements.txt

ensure_venv() {
  local requirements=$1
  if [ ! -x .venv/bin/python ]; then
    echo "==> Creating .venv with $(python3 --version)"
    python3 -m venv .venv
  fi
  # The files include each other, so all of them go into the stamp.
  local digest stamp
  digest=$(cat requirements.txt requirements-dev.txt bench/requirements.txt | python3 -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
  stamp=".venv/.installed-$(echo "${requirements%.txt}" | tr / -)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$digest" ]; then
    echo "==> Installing $requirements into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$digest" > "$stamp"
  fi
}
