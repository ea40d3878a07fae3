#!/usr/bin/env bash
# A real outage, end to end: stop Redis, then PostgreSQL, under a running site,
# and start them again. Shows what a browser, an API client and a WebSocket get
# while each is down (503 with Retry-After, a socket closed with 4503) and that
# the site recovers by itself, without a restart.
#
#   bench/outage.sh
#
# It starts everything it uses on spare ports and removes it at the end: its own
# redis-server, its own throwaway PostgreSQL cluster (initdb; as the postgres
# user when run as root), and the site the production way (scripts/serve:
# nginx in front of granian, two workers, and uvicorn) with DEBUG off. The shared PostgreSQL and
# Redis servers are not touched. Environment: PG_BIN (the
# PostgreSQL binaries, default the newest /usr/lib/postgresql/*/bin),
# OUTAGE_KEEP=1 to keep the logs, and the site's own settings (DB_POOL=0...).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh

ensure_venv bench/requirements.txt

PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
for tool in "$PG_BIN/initdb" "$PG_BIN/pg_ctl" redis-server redis-cli curl; do
  command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool is needed" >&2; exit 1; }
done

free_port() { .venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
redis_port=$(free_port)
pg_port=$(free_port)
site_port=$(free_port)
work=$(mktemp -d -t tttsite-outage.XXXXXX)
chmod 755 "$work"
site="http://127.0.0.1:${site_port}"
site_pid=""

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
pg_start() {
  as_postgres "$PG_BIN/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w -s \
    -o "-p ${pg_port} -k ${work} -c listen_addresses=127.0.0.1" start
}
pg_stop() { as_postgres "$PG_BIN/pg_ctl" -D "$work/pg" -m fast -w -s stop; }
redis_start() {
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --dir "$work" --pidfile "$work/redis.pid" --logfile "$work/redis.log"
  until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do sleep 0.1; done
}
redis_stop() { redis-cli -p "$redis_port" shutdown nosave >/dev/null 2>&1 || true; }

# Under set -e, each step's failure is ignored here: scripts/serve exits 143
# when stopped, and a failed wait would end the cleanup before Redis and
# PostgreSQL are stopped, and the script with 143.
cleanup() {
  if [ -n "$site_pid" ]; then
    kill "$site_pid" 2>/dev/null || true
    wait "$site_pid" 2>/dev/null || true
  fi
  redis_stop
  if [ -f "$work/pg/postmaster.pid" ]; then pg_stop 2>/dev/null || true; fi
  if [ -n "${OUTAGE_KEEP:-}" ]; then echo "Kept ${work} (site.log, redis.log, pg.log)"; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "==> Starting redis-server on ${redis_port} and PostgreSQL on ${pg_port} (${work})"
redis_start
[ "$(id -u)" -eq 0 ] && chown postgres "$work"
as_postgres "$PG_BIN/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >/dev/null
pg_start
"$PG_BIN/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres tttsite

export SECRET_KEY="outage-$(.venv/bin/python -c 'import secrets; print(secrets.token_urlsafe(40))')"
export DEBUG=0 ALLOWED_HOSTS=127.0.0.1 LOG_LEVEL=WARNING
export DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/tttsite"
export REDIS_URL="redis://127.0.0.1:${redis_port}/0"
# Static files collected here, not into the shared staticfiles/ that another
# run may be writing at the same moment.
export STATIC_ROOT="${work}/static"

echo "==> Migrating, making two players and a game between them"
.venv/bin/python manage.py migrate --noinput >/dev/null
read -r game token session < <(.venv/bin/python manage.py shell -c '
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from games.accounts.services import api_token_create
from games.lobby import services
users = get_user_model().objects
alice = users.create_user("alice", password="outage-alice-password")
bob = users.create_user("bob", password="outage-bob-password")
game = services.challenge_accept(user=bob, challenge_id=services.challenge_create(challenger=alice, side="X").pk)
client = Client()
client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
print(game.pk, api_token_create(user=alice), client.cookies[settings.SESSION_COOKIE_NAME].value)
' 2>/dev/null | tail -n 1)

echo "==> Serving the production way (scripts/serve, DB_POOL=${DB_POOL:-1}) on ${site}: nginx in front,"
echo "    pages and API by granian (2 workers), WebSockets by uvicorn (1 process)"
WORKERS=2 SOCKET_WORKERS=1 HOST=127.0.0.1 PORT="$site_port" PYTHONUNBUFFERED=1 \
  scripts/serve >"$work/site.log" 2>&1 &
site_pid=$!
for _ in $(seq 300); do
  curl -s -o /dev/null "http://127.0.0.1:${site_port}/healthz/" && break
  kill -0 "$site_pid" 2>/dev/null || { cat "$work/site.log" >&2; echo "FAILED: scripts/serve exited" >&2; exit 1; }
  sleep 0.2
done
# The processes serving: scripts/serve's children nginx, granian (its
# master) and uvicorn, and the master's children (the workers). granian
# starts a new worker in place of one that dies, and scripts/serve stops when
# any server does: the same processes at the end show that the site
# recovered without any of them being restarted.
serving() {
  local nginx master uvicorn workers=""
  nginx=$(pgrep -P "$site_pid" -f '^nginx: master' || true)
  master=$(pgrep -P "$site_pid" -f 'bin/granian' || true)
  uvicorn=$(pgrep -P "$site_pid" -f 'bin/uvicorn' || true)
  [ -n "$master" ] && workers=$(pgrep -P "$master" | sort -n | paste -sd ' ')
  echo "nginx ${nginx:-none}, granian ${master:-none} with workers ${workers:-none}, uvicorn ${uvicorn:-none}"
}
processes_at_start=$(serving)
if ! [[ "$processes_at_start" =~ ^nginx\ [0-9]+,\ granian\ [0-9]+\ with\ workers\ [0-9]+\ [0-9]+,\ uvicorn\ [0-9]+$ ]]; then
  echo "FAILED: not nginx, granian with two workers and one uvicorn process: ${processes_at_start}" >&2
  exit 1
fi

# One WebSocket as the game page opens it: "live" once the server's first
# message arrives, or how it was closed. With --hold, wait for a close. With
# --token, as a program opens it instead: its API token on the handshake.
ws_probe() {
  .venv/bin/python - "$site_port" "$game" "$session" "$token" "$@" <<'PY'
import asyncio, json, sys, time
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

port, game, session, token = sys.argv[1:5]
options = sys.argv[5:]
hold = float(options[options.index("--hold") + 1]) if "--hold" in options else 0

async def main():
    # From a page of the site (its Origin), as the game page opens it; or
    # with the API token, as a program does.
    url = f"ws://127.0.0.1:{port}/ws/games/{game}/"
    if "--token" in options:
        how = {"additional_headers": {"Authorization": f"Token {token}"}}
    else:
        how = {"origin": f"http://127.0.0.1:{port}", "additional_headers": {"Cookie": f"sessionid={session}"}}
    try:
        async with connect(url, open_timeout=15, **how) as ws:
            try:
                first = json.loads(await asyncio.wait_for(ws.recv(), 15))
            except ConnectionClosed as closed:
                return f"closed {closed.rcvd.code if closed.rcvd else 'without a code'}"
            if not hold:
                return "live" if first.get("type") == "state" else f"said {first}"
            print("open", flush=True)
            started = time.monotonic()
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), hold)
            except ConnectionClosed as closed:
                return f"closed {closed.rcvd.code if closed.rcvd else 'without a code'} after {time.monotonic() - started:.1f} s"
            except asyncio.TimeoutError:
                return f"still open after {hold:.0f} s"
    except InvalidStatus as refused:
        return f"refused {refused.response.status_code}"
    except InvalidHandshake as failed:
        return f"handshake failed ({failed})"
    except (OSError, asyncio.TimeoutError) as error:
        return f"no answer ({type(error).__name__})"

print(asyncio.run(main()), flush=True)
PY
}

# "status seconds" of one request; its body is left in $work/body.
fetch() {
  curl -s -o "$work/body" -D "$work/headers" -w '%{http_code} %{time_total}\n' --max-time 30 "$@" || echo "000 30"
}

problems=()
# One line of the table; $2 $3 $4: the page's, the API's and the socket's
# expected answers ("503", "live", "any"), noted in $problems when not met.
row() {
  local label=$1 page page_time api api_time code retry socket
  read -r page page_time < <(fetch -b "sessionid=${session}" "${site}/games/${game}/")
  read -r api api_time < <(fetch -H "Authorization: Token ${token}" "${site}/api/games/${game}/")
  code=$(.venv/bin/python -c 'import json, sys; print(json.load(open(sys.argv[1])).get("code", ""))' "$work/body" 2>/dev/null || true)
  retry=$(grep -i '^retry-after:' "$work/headers" | tr -d '\r' | awk '{print $2}' || true)
  socket=$(ws_probe)
  token_socket=$(ws_probe --token)
  printf '%-34s | %4s %5.2fs | %4s %5.2fs %-19s | %-5s | %-12s | %s\n' \
    "$label" "$page" "$page_time" "$api" "$api_time" "$code" "${retry:--}" "$socket" "$token_socket"
  [ "$page" = "$2" ] || problems+=("${label}: the game page answered ${page}, not $2")
  [ "$api" = "$3" ] || problems+=("${label}: the API answered ${api}, not $3")
  case "$4" in
    any) ;;
    *)
      [ "$socket" = "$4" ] || problems+=("${label}: the WebSocket was '${socket}', not '$4'")
      [ "$token_socket" = "$4" ] || problems+=("${label}: the WebSocket with a token was '${token_socket}', not '$4'")
      ;;
  esac
  if [ "$api" = 503 ] && [ "${retry:-}" != 5 ]; then problems+=("${label}: no Retry-After: 5 on the 503"); fi
}

# Seconds (from $1) until the signed-in page and the API answer 200 again, six
# times in a row (each worker has its own pool, and comes back on its own),
# and until a WebSocket is live again: "http ws".
recovery() {
  local start=$1 page api http="over 60" socket="over 60" streak=0 first=""
  for _ in $(seq 240); do
    read -r page _ < <(fetch -b "sessionid=${session}" "${site}/games/${game}/")
    read -r api _ < <(fetch -H "Authorization: Token ${token}" "${site}/api/games/${game}/")
    if [ "$page" = 200 ] && [ "$api" = 200 ]; then
      [ "$streak" -eq 0 ] && first=$(since "$start")
      streak=$((streak + 1))
      if [ "$streak" -ge 6 ]; then http=$first; break; fi
    else
      streak=0
      sleep 0.5
    fi
  done
  for _ in $(seq 60); do
    if [ "$(ws_probe)" = live ] && [ "$(ws_probe --token)" = live ]; then socket=$(since "$start"); break; fi
    sleep 0.5
  done
  echo "$http $socket"
}
since() { .venv/bin/python -c 'import sys, time; print(f"{time.time() - float(sys.argv[1]):.1f}")' "$1"; }

# A socket held open across a stop: the probe prints "open" once it is live.
hold_socket() {
  ws_probe --hold 30 > "$work/held" &
  held_pid=$!
  for _ in $(seq 150); do
    grep -q '^open$' "$work/held" 2>/dev/null && return
    sleep 0.1
  done
}

echo
printf '%-34s | %-11s | %-31s | %-5s | %-12s | %s\n' "" "game page" "API GET /api/games/{id}/" "Retry" "WebSocket" "with a token"
row "everything up" 200 200 live

hold_socket
redis_stop
row "Redis stopped" 200 503 "closed 4503"
wait "$held_pid" || true
held_redis=$(tail -n 1 "$work/held")
cp "$work/body" "$work/redis-body.json"
started=$(date +%s.%N)
redis_start
read -r redis_http redis_ws < <(recovery "$started")
row "Redis started again" 200 200 live

hold_socket
pg_stop
row "PostgreSQL stopped" 503 503 any
wait "$held_pid" || true
held_pg=$(tail -n 1 "$work/held")
cp "$work/body" "$work/pg-body.json"
fetch -b "sessionid=${session}" "${site}/games/${game}/" >/dev/null
page_title=$(grep -o '<title>[^<]*</title>' "$work/body" | head -n 1 || true)
page_lead=$(grep -o '<p class="lead">[^<]*</p>' "$work/body" | head -n 1 || true)
traceback=$(grep -c -i 'traceback' "$work/body" || true)
started=$(date +%s.%N)
pg_start
read -r pg_http pg_ws < <(recovery "$started")
row "PostgreSQL started again" 200 200 live

echo
echo "Back after Redis started:      pages and API in ${redis_http} s, WebSockets in ${redis_ws} s"
echo "Back after PostgreSQL started: pages and API in ${pg_http} s, WebSockets in ${pg_ws} s"
echo "A socket open when Redis stopped:      ${held_redis}"
echo "A socket open when PostgreSQL stopped: ${held_pg}"
echo "API body, Redis down:      $(cat "$work/redis-body.json")"
echo "API body, PostgreSQL down: $(cat "$work/pg-body.json")"
echo "Game page, PostgreSQL down: ${page_title} ${page_lead} (tracebacks in it: ${traceback})"
processes_at_end=$(serving)
if [ "$processes_at_end" = "$processes_at_start" ]; then
  echo "The site was not restarted: the same processes served every request above,"
  echo "  ${processes_at_start}"
else
  problems+=("the serving processes changed from '${processes_at_start}' to '${processes_at_end}' (one died and was replaced)")
fi
echo
echo "Errors the site logged (one line each):"
grep -E ' is down, ' "$work/site.log" | sed -E 's/^[0-9-]+ [0-9:,]+ //' | sort | uniq -c | sort -rn \
  | sed -E 's/^ *([0-9]+) /\1 x /' | head -n 8 || true

echo
if [ "${#problems[@]}" -ne 0 ]; then
  printf 'FAILED: %s\n' "${problems[@]}" >&2
  exit 1
fi
[ "$traceback" = 0 ] || { echo "FAILED: the 503 page shows a traceback" >&2; exit 1; }
echo "As expected: 503 with Retry-After while a service was down, and back by itself once it was started."
