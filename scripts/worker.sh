# Sourced by scripts/serve (and so scripts/run): the background worker beside the
# web server (games.worker: games ended on time, the AI's owed moves,
# new puzzles), stopped when the server stops. In production run it as a
# service of its own instead (docs/operations.md) and set RUN_WORKER=0.
#   start_worker

start_worker() {
  if [ "${RUN_WORKER:-1}" = "0" ]; then
    echo "==> RUN_WORKER=0: not starting the worker here (run: manage.py run_worker)"
    return
  fi
  .venv/bin/python manage.py run_worker &
  WORKER_PID=$!
  trap 'kill "$WORKER_PID" 2>/dev/null || true; wait "$WORKER_PID" 2>/dev/null || true' EXIT
}
