# Sourced, not run: starts and stops one local `partita start` server for a
# script (scripts/demo, bench/voter/run, bench/kv/run).
#
#   . "$root/scripts/lib/local-server.sh"
#   trap local_server_stop EXIT
#   local_server_start "run" --schema ddl.sql --sites 2 --port 0 --http-port -1 || exit 3
#   echo "$LOCAL_SERVER_ADDRESS"        # 127.0.0.1:PORT, from the ready line
#
# local_server_start NAME ARGS... runs `partita start ARGS...` in the
# background with its output in a temporary log, waits (60 s at most) for its
# "partita: ready" line, and sets LOCAL_SERVER_PID, LOCAL_SERVER_READY (the
# line) and LOCAL_SERVER_ADDRESS. If the server exits or is not ready in time
# it prints the log to stderr, stops it and returns 1. local_server_stop sends
# SIGTERM (the server answers every accepted call, then exits), waits up to
# 30 s, then SIGKILL, and deletes the log. Both are safe to call twice.

LOCAL_SERVER_PID=""
LOCAL_SERVER_LOG=""
LOCAL_SERVER_READY=""
LOCAL_SERVER_ADDRESS=""
LOCAL_SERVER_NAME="server"
_local_server_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

local_server_start() {
  LOCAL_SERVER_NAME="$1"; shift
  LOCAL_SERVER_LOG="$(mktemp "${TMPDIR:-/tmp}/partita-server.XXXXXX")"
  "$_local_server_root/scripts/partita" start "$@" >"$LOCAL_SERVER_LOG" 2>&1 &
  LOCAL_SERVER_PID=$!
  local _
  for _ in $(seq 600); do
    LOCAL_SERVER_READY="$(grep -m1 '^partita: ready' "$LOCAL_SERVER_LOG" || true)"
    [ -n "$LOCAL_SERVER_READY" ] && break
    kill -0 "$LOCAL_SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$LOCAL_SERVER_READY" ]; then
    echo "$LOCAL_SERVER_NAME: the server did not become ready (it exited, or 60 s passed); its output:" >&2
    cat "$LOCAL_SERVER_LOG" >&2
    local_server_stop
    return 1
  fi
  # "partita: ready: client port 127.0.0.1:PORT, ..." -> 127.0.0.1:PORT
  LOCAL_SERVER_ADDRESS="$(sed -E 's/^partita: ready: client port ([^,]+).*/\1/' <<<"$LOCAL_SERVER_READY")"
}

local_server_stop() {
  if [ -n "$LOCAL_SERVER_PID" ] && kill -0 "$LOCAL_SERVER_PID" 2>/dev/null; then
    echo "$LOCAL_SERVER_NAME: stopping the local server (pid $LOCAL_SERVER_PID)"
    kill -TERM "$LOCAL_SERVER_PID" 2>/dev/null || true
    local _
    for _ in $(seq 300); do
      kill -0 "$LOCAL_SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$LOCAL_SERVER_PID" 2>/dev/null; then
      echo "$LOCAL_SERVER_NAME: the server ignored SIGTERM for 30 s; killing it" >&2
      kill -KILL "$LOCAL_SERVER_PID" 2>/dev/null || true
    fi
    wait "$LOCAL_SERVER_PID" 2>/dev/null || true
  fi
  LOCAL_SERVER_PID=""
  if [ -n "$LOCAL_SERVER_LOG" ]; then
    rm -f "$LOCAL_SERVER_LOG"
    LOCAL_SERVER_LOG=""
  fi
}
