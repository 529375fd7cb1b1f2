# Sourced, not run: kills one host of a local cluster (scripts/lib/local-cluster.sh)
# while a benchmark driver runs, then checks the failover as the driver saw it
# (bench/kv/run --kill-host-after S; bench/cluster/RESULTS.md).
#
#   kill_host_check_options AFTER HOST HOSTS KFACTOR DRIVER   # 2 when they do not go together
#   kill_host_start_watcher DRIVER_PID DRIVER_OUT AFTER HOST  # in the background
#   ... wait for the driver ...
#   kill_host_stop_watcher
#   kill_host_check DRIVER_OUT DRIVER_STATUS                  # 1 when the failover check fails
#
# The watcher waits until the driver's output says the load began (the line
# announcing the warm-up, printed after the preload), sleeps AFTER seconds,
# notes the wall clock (epoch ms) and sends SIGKILL to the host's process
# (its pid file in the cluster directory, as `scripts/cluster kill` does).
# The check needs the driver's `--partition-pauses report` lines: the
# partitions whose longest pause between successes ends after the kill and
# begins before KILL_HOST_SLACK_MS (1,000) after it (answers sent before the
# kill keep arriving for a moment) are the ones the kill stopped: the killed
# host's, those whose answers waited for a copy on it, and any the driver's
# sending thread could not reach while it waited for room on a stalled
# connection. The end of that pause is their first success after the kill.
# It passes when the driver exited 0 (verification consistent), every
# failure it counted had an unknown outcome, and every such partition
# answered again within KILL_HOST_TARGET_MS (5,000) of the kill.

KILL_HOST_WATCHER=""
KILL_HOST_TARGET_MS="${KILL_HOST_TARGET_MS:-5000}"
KILL_HOST_SLACK_MS=1000

kill_host_check_options() {
  local after="$1" host="$2" hosts="$3" kfactor="$4" driver="$5"
  if [ -z "$after" ]; then
    [ -z "$host" ] || { echo "run: --kill-host needs --kill-host-after" >&2; return 2; }
    return 0
  fi
  [[ "$after" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "run: --kill-host-after must be seconds, got '$after'" >&2; return 2; }
  [ -n "$hosts" ] || { echo "run: --kill-host-after needs --cluster" >&2; return 2; }
  [ "$kfactor" -ge 1 ] || { echo "run: --kill-host-after needs --kfactor 1 or more (with K = 0 nothing fails over)" >&2; return 2; }
  [ "$driver" = cpp ] || { echo "run: --kill-host-after needs --driver cpp (its --partition-pauses report)" >&2; return 2; }
  if [ -n "$host" ] && { ! [[ "$host" =~ ^[0-9]+$ ]] || [ "$host" -ge "$hosts" ]; }; then
    echo "run: --kill-host must be a host id from 0 to $((hosts - 1)), got '$host'" >&2
    return 2
  fi
}

kill_host_start_watcher() {
  local driver_pid="$1" out="$2" after="$3" host="$4"
  local dir="$LOCAL_CLUSTER_DIR"
  (
    until grep -q 'warm-up then' "$out" 2>/dev/null; do
      kill -0 "$driver_pid" 2>/dev/null || exit 0
      sleep 0.1
    done
    sleep "$after"
    kill -0 "$driver_pid" 2>/dev/null || exit 0
    pid="$(cat "$dir/host-$host.pid")"
    date +%s%3N > "$dir/killed-at"
    kill -KILL "$pid"
    echo "run: killed host $host (pid $pid, SIGKILL) at $(cat "$dir/killed-at") (epoch ms)"
    echo "$host" > "$dir/killed-host"
  ) &
  KILL_HOST_WATCHER=$!
}

kill_host_stop_watcher() {
  if [ -n "$KILL_HOST_WATCHER" ] && kill -0 "$KILL_HOST_WATCHER" 2>/dev/null; then
    kill -TERM "$KILL_HOST_WATCHER" 2>/dev/null || true
  fi
  [ -z "$KILL_HOST_WATCHER" ] || wait "$KILL_HOST_WATCHER" 2>/dev/null || true
  KILL_HOST_WATCHER=""
}

kill_host_check() {
  local out="$1" status="$2" dir="$LOCAL_CLUSTER_DIR" ok=0
  if [ ! -f "$dir/killed-at" ]; then
    echo "run: failover check FAILED: no host was killed (the load ended first: lower --kill-host-after or raise --duration)" >&2
    return 1
  fi
  local killed_at host
  killed_at="$(cat "$dir/killed-at")"
  host="$(cat "$dir/killed-host" 2>/dev/null || echo '?')"
  local resumed
  resumed="$(awk -v k="$killed_at" -v slack="$KILL_HOST_SLACK_MS" '
    /^kv: pause: partition / {
      from = $(NF - 4) + 0; to = $(NF - 2) + 0
      if (to > k && from < k + slack) { printf "%s %d %s\n", $4, to - k, $6; n++ }
    }
    END { if (n == 0) print "none" }' "$out")"
  if [ "$resumed" = none ]; then
    echo "run: failover check FAILED: no partition's successes paused at the kill (did the driver report --partition-pauses?)" >&2
    return 1
  fi
  # The survivors' own account, timed from the kill: the metadata leader declaring the host dead, each
  # survivor following the new map. What the driver saw after that is the clients' part.
  local log day clock rest at
  for log in "$dir"/host-*.log; do
    grep -hE 'declared dead|cluster: failover: this host' "$log" 2>/dev/null | while read -r day clock rest; do
      at="$(date -d "$day $clock" +%s%3N 2>/dev/null)" || continue
      echo "run: $(basename "$log" .log) logged $(awk -v m="$((at - killed_at))" 'BEGIN { printf "%.3f", m / 1000 }') s after the kill: ${rest#* * }" | cut -c1-220
    done
  done
  local worst=0 partition ms longest
  while read -r partition ms longest; do
    echo "run: failover: host $host killed; partition $partition answered again $(awk -v m="$ms" 'BEGIN { printf "%.3f", m / 1000 }') s after the kill (its longest pause $longest s)"
    [ "$ms" -le "$worst" ] || worst="$ms"
  done <<< "$resumed"
  if [ "$worst" -gt "$KILL_HOST_TARGET_MS" ]; then
    echo "run: failover check FAILED: a partition answered again $worst ms after the kill, over $KILL_HOST_TARGET_MS ms" >&2
    ok=1
  fi
  local others
  others="$(sed -n 's/^kv: failures over the whole run: .* \([0-9,]*\) others.*/\1/p' "$out" | tr -d ,)"
  if [ -n "$others" ] && [ "$others" != 0 ]; then
    echo "run: failover check FAILED: $others failure(s) other than calls whose outcome is unknown" >&2
    ok=1
  fi
  if [ "$status" != 0 ]; then
    echo "run: failover check FAILED: the driver exited $status (verification or the run failed)" >&2
    ok=1
  fi
  [ "$ok" != 0 ] || echo "run: failover check passed: consistent, only outcome-unknown failures, every partition back within $KILL_HOST_TARGET_MS ms"
  return "$ok"
}
