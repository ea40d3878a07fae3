# Sourced by scripts/run and scripts/test: make .venv and install a
# requirements file into it, only when that file (or one it includes) changed.
#   ensure_venv requirements.txt

ensure_venv() {
  local requirements=$1
  if [ ! -x .venv/bin/python ]; then
    echo "==> Creating .venv with $(python3 --version)"
    python3 -m venv .venv
  fi
  # requirements-dev.txt includes requirements.txt, so both go into the stamp.
  local digest stamp
  digest=$(cat "$requirements" requirements.txt | python3 -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')
  stamp=".venv/.installed-$(basename "$requirements" .txt)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$digest" ]; then
    echo "==> Installing $requirements into .venv"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$digest" > "$stamp"
  fi
}
