# Sourced by scripts/serve: stop everything the script started, and everything
# those started in turn (a page worker's engine processes, or those a worker
# that died left to nobody), within a bound:
#   trap stop_everything EXIT
#
# The script's background jobs (the servers and the worker) are asked to stop
# (TERM) and given STOP_SECONDS (default 12: their own graceful stops take at
# most 10). Then whatever is left of the script's descendants, and of the
# process group it leads, gets TERM, and KILL two seconds later. The group
# holds what a dead parent left behind, whoever adopted it. The script leads
# one as a terminal's job, a systemd service or when started with setsid;
# its parent's other children in it (a `| tee` beside it) are left alone.
# shellcheck shell=bash disable=SC2086 # pids, one word each

stop_seconds="${STOP_SECONDS:-12}"

# The living processes among the pids given.
living() {
  local pid line state
  for pid in "$@"; do
    read -r line 2>/dev/null < "/proc/$pid/stat" || continue
    read -r state _ <<< "${line##*) }"
    case "$state" in Z | X) ;; *) echo "$pid" ;; esac
  done
}

# The script's living descendants and the rest of the process group it leads,
# from /proc ("pid (name) state ppid pgrp ...": a name may hold spaces).
ours() {
  local stat line pid state ppid pgrp grew
  local -A parent_of=() found=()
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null < "$stat" || continue
    pid="${stat#/proc/}" && pid="${pid%/stat}"
    read -r state ppid pgrp _ <<< "${line##*) }"
    case "$state" in Z | X) continue ;; esac
    [ "$pid" = "$$" ] || [ "$pid" = "$BASHPID" ] && continue
    parent_of[$pid]=$ppid
    if [ "$pgrp" = "$$" ] && { [ "$ppid" != "$PPID" ] || [ "$PPID" = 1 ]; }; then
      found[$pid]=1
    fi
  done
  grew=1
  while [ -n "$grew" ]; do
    grew=
    for pid in "${!parent_of[@]}"; do
      ppid="${parent_of[$pid]}"
      if [ -z "${found[$pid]:-}" ] && { [ "$ppid" = "$$" ] || [ -n "${found[$ppid]:-}" ]; }; then
        found[$pid]=1 && grew=1
      fi
    done
  done
  echo "${!found[@]}"
}

# Wait until none of the pids given is living, for at most $1 seconds.
wait_for_end() {
  local deadline=$((SECONDS + $1))
  shift
  while [ -n "$(living "$@")" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
}

stop_everything() {
  trap '' INT TERM # a second Ctrl-C does not cut the stopping short
  trap - EXIT
  local started left
  started=$(jobs -p)
  if [ -n "$started" ]; then
    kill -TERM $started 2>/dev/null || true
    wait_for_end "$stop_seconds" $started
  fi
  left=$(ours)
  if [ -n "$left" ]; then
    kill -TERM $left 2>/dev/null || true
    wait_for_end 2 $left
    left=$(living $left)
    if [ -n "$left" ]; then
      kill -KILL $left 2>/dev/null || true
      wait_for_end 2 $left
    fi
  fi
  wait 2>/dev/null || true
}
