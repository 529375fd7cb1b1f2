# Sourced, not run: starts and stops a local cluster (scripts/cluster) for a
# benchmark script (bench/voter/run, bench/kv/run), in a cluster directory of
# its own so that it never touches a cluster the user started.
#
#   . "$root/scripts/lib/local-cluster.sh"
#   trap local_cluster_stop EXIT
#   local_cluster_start run 3 1 2 --schema ddl.sql --classes DIR || exit 1
#   echo "$LOCAL_CLUSTER_SERVERS"        # 127.0.0.1:21212,127.0.0.2:21212,...
#
# local_cluster_start NAME HOSTS KFACTOR SITES_PER_HOST ARGS... runs
# `scripts/cluster start --hosts HOSTS --kfactor KFACTOR --sites-per-host
# SITES_PER_HOST ARGS...` with PARTITA_CLUSTER_DIR set to a new temporary
# directory, the HTTP ports off and client and internal ports drawn at random
# below the kernel's ephemeral range (each host has its own address, so one
# port serves all; a random one keeps clear of a cluster on the default
# ports, and below that range no outgoing connection takes it first), and sets
# LOCAL_CLUSTER_SERVERS to the client addresses it printed. ARGS may give
# the hosts HTTP ports after all (`--http-port P [--web-root DIR]`: the
# later option wins); LOCAL_CLUSTER_PAGES then holds the cluster pages'
# URLs, space-separated (empty without HTTP). If the cluster does not start (scripts/cluster bounds the wait and
# stops what it started), prints its output to stderr and returns 1.
# local_cluster_stop runs `scripts/cluster stop` (SIGTERM, SIGKILL after 30 s)
# and removes the directory. Both are safe to call twice.

# local_cluster_check_options HOSTS KFACTOR SERVERS: the checks both
# benchmark scripts make of their --cluster, --kfactor and --servers
# options; prints the reason and returns 2 when they do not go together
# (HOSTS empty: no cluster asked, then K must be 0).
local_cluster_check_options() {
  local hosts="$1" kfactor="$2" servers="$3"
  if [ -z "$hosts" ]; then
    [ "$kfactor" = 0 ] || { echo "run: --kfactor needs --cluster" >&2; return 2; }
    return 0
  fi
  [[ "$hosts" =~ ^[1-9][0-9]*$ ]] || { echo "run: --cluster must be a positive number of hosts, got '$hosts'" >&2; return 2; }
  [[ "$kfactor" =~ ^[0-9]+$ ]] || { echo "run: --kfactor must be a number, got '$kfactor'" >&2; return 2; }
  [ -z "$servers" ] || { echo "run: --cluster starts its own hosts; it does not go with --servers" >&2; return 2; }
}

LOCAL_CLUSTER_DIR=""
LOCAL_CLUSTER_SERVERS=""
LOCAL_CLUSTER_PAGES=""
LOCAL_CLUSTER_NAME="cluster"
_local_cluster_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

local_cluster_start() {
  LOCAL_CLUSTER_NAME="$1"
  local hosts="$2" kfactor="$3" sites="$4"
  shift 4
  LOCAL_CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/partita-cluster.XXXXXX")"
  local output
  # Below the kernel's ephemeral range (where no outgoing connection takes its local port), from 10000.
  local ephemeral_low port
  ephemeral_low="$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
  [[ "$ephemeral_low" =~ ^[0-9]+$ ]] && [ "$ephemeral_low" -ge 12005 ] || ephemeral_low=32768
  port=$((10000 + RANDOM % (ephemeral_low - 10005)))
  if ! output="$(PARTITA_CLUSTER_DIR="$LOCAL_CLUSTER_DIR" "$_local_cluster_root/scripts/cluster" start \
      --hosts "$hosts" --kfactor "$kfactor" --sites-per-host "$sites" --port "$port" --http-port -1 \
      --internal-port "$((port + 3))" "$@" 2>&1)"; then
    echo "$LOCAL_CLUSTER_NAME: the local cluster did not start; scripts/cluster said:" >&2
    echo "$output" >&2
    local_cluster_stop
    return 1
  fi
  LOCAL_CLUSTER_SERVERS="$(cat "$LOCAL_CLUSTER_DIR/servers")"
  LOCAL_CLUSTER_PAGES="$(paste -sd' ' "$LOCAL_CLUSTER_DIR/pages" 2>/dev/null || true)"
}

local_cluster_stop() {
  if [ -n "$LOCAL_CLUSTER_DIR" ] && [ -d "$LOCAL_CLUSTER_DIR" ]; then
    echo "$LOCAL_CLUSTER_NAME: stopping the local cluster"
    PARTITA_CLUSTER_DIR="$LOCAL_CLUSTER_DIR" "$_local_cluster_root/scripts/cluster" stop >/dev/null 2>&1 || true
    rm -rf "$LOCAL_CLUSTER_DIR"
  fi
  LOCAL_CLUSTER_DIR=""
}
