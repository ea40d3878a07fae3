#!/usr/bin/env bash
# The site's speed beside Django's own, side by side in one run: an
# empty Django view under gunicorn (the anchor), the site under scripts/serve,
# a raw-SQL move-shaped transaction, an API move, the spectator fan-out.
# See bench/web.py for what it does and measures.
#   bench/web.sh                              # SQLite, 32 connections, 10 s a row
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bench/web.sh
# Needs wrk (apt-get install wrk) and Redis (BENCH_REDIS_URL, default
# redis://127.0.0.1:6379/12; that database is emptied). With DATABASE_URL, a
# fresh database is made on that server for the run and dropped after.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
ensure_venv bench/requirements.txt
exec .venv/bin/python -m bench.web "$@"
