# Sourced by scripts/run and scripts/test: make .venv and install a
# requirements file into it, only when that file (or one it includes) changed,
# and build the engine's compiled search core when its source changed.
#   ensure_venv requirements.txt

# Install a Debian package when the command it brings is missing (as root or
# with sudo); without either, say what to install and stop.
need_debian_package() {
  local command=$1
  shift
  command -v "$command" >/dev/null 2>&1 && return 0
  echo "==> Installing Debian's $* (for $command)"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends "$@"
  else
    echo "error: $command is not installed and I cannot install it (not root, no sudo)." >&2
    echo "       Install Debian's package(s): apt-get install $*" >&2
    exit 1
  fi
}

# games/search/core.c compiled into games/search/libtttcore.so, with Debian's C
# compiler installed first when there is none.
ensure_core() {
  need_debian_package cc gcc libc6-dev
  .venv/bin/python -m games.search.core build --if-stale
}

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
  ensure_core
}
