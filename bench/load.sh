#!/usr/bin/env bash
# Load test against the production server (scripts/serve: nginx on
# 127.0.0.1:8200 in front of granian and uvicorn), on
# PostgreSQL and SQLite; see bench/load.py for what it does and measures.
#   bench/load.sh                          # 200 players, 2 minutes, both databases
#   bench/load.sh --db sqlite --kill-at 60 # kill -9 every server process a minute in, restart them
# Needs PostgreSQL (LOAD_PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres)
# and Redis (LOAD_REDIS_URL, default redis://127.0.0.1:6379/7; that database is emptied).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
ensure_venv bench/requirements.txt
exec .venv/bin/python -m bench.load "$@"
