# Sourced, not run: the shared body of bench/voter/profile and bench/kv/profile.
# The caller sets PROFILE_NAME (voter or kv), PROFILE_SCHEMA (its DDL),
# PROFILE_CLASSES (procedure classes, or empty) and PROFILE_DEFAULT_OUT, then
# calls profile_main "$@". It starts one local server, or a local cluster
# with --cluster (unless --servers is given), runs
# bench/common/profile/latency_profile.py with bench/$PROFILE_NAME/run against
# it, and stops what it started (also on Ctrl-C or a failure).

profile_usage() {
  cat <<USAGE
Usage: bench/$PROFILE_NAME/profile [--driver cpp|java] [--servers LIST] [--sites N]
       [--cluster HOSTS [--kfactor K]] [--out DIR]
       [--step-seconds S] [--warmup S] [--fractions F,...] [--rates R,...] [-- driver options...]

A latency-throughput profile of the $PROFILE_NAME workload: one run as fast as
the server answers finds the saturation rate, then runs at fixed rates from
above it stepping down (1.25, 1.0, 0.9 ... 0.1 of it by default), each with its
own warm-up, against one local server kept up for every step (or a local
cluster, or the servers you name). Writes profile.csv (step, target_rate, tps, p50_ms, p99_ms,
p999_ms, max_ms) and profile.svg (latency against throughput, log scale) into
--out, and prints one line per step. It builds nothing: run scripts/build first.

  --driver cpp|java     the driver (default cpp)
  --servers LIST        running servers with the $PROFILE_NAME schema (no local server)
  --sites N             sites of the local server (default: nproc), or per host
                        with --cluster (default 1)
  --cluster HOSTS       a local cluster of HOSTS hosts instead of one server
                        (scripts/cluster, host i on 127.0.0.(i+1); docs/cluster.md),
                        kept up for every step
  --kfactor K           the cluster's K-safety (default 0)
  --out DIR             where profile.csv and profile.svg go (default $PROFILE_DEFAULT_OUT)
  --step-seconds S      measured seconds per step (default 20)
  --warmup S            warm-up seconds per step (default 5)
  --fractions F,...     fractions of the saturation rate, highest first
  --rates R,...         fixed rates instead (no saturation run)
  -- OPTIONS            passed to every driver run (e.g. -- --preload 100000 for kv)
  -h, --help            this help

Exit code: 0 when every step ran; 1 when a step failed (the steps so far
are in profile.csv); 2 for bad options or a missing build; 3 when the local
server or cluster does not start.
USAGE
}

profile_main() {
  local root driver=cpp servers="" sites="" cluster_hosts="" kfactor=0 out="$PROFILE_DEFAULT_OUT"
  local profile_args=() driver_args=()
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  while [ $# -gt 0 ]; do
    case "$1" in
      -h|--help) profile_usage; return 0 ;;
      --driver|--servers|--sites|--cluster|--kfactor|--out|--step-seconds|--warmup|--fractions|--rates)
        [ $# -ge 2 ] || { echo "profile: $1 needs a value" >&2; return 2; }
        case "$1" in
          --driver) driver="$2" ;;
          --servers) servers="$2" ;;
          --sites) sites="$2" ;;
          --cluster) cluster_hosts="$2" ;;
          --kfactor) kfactor="$2" ;;
          --out) out="$2" ;;
          *) profile_args+=("$1" "$2") ;;
        esac
        shift 2 ;;
      --) shift; driver_args+=("$@"); break ;;
      *) echo "profile: unknown option '$1' (bench/$PROFILE_NAME/profile --help)" >&2; return 2 ;;
    esac
  done
  case "$driver" in cpp|java) ;; *) echo "profile: --driver must be cpp or java, got '$driver'" >&2; return 2 ;; esac
  [ -n "$sites" ] || { [ -n "$cluster_hosts" ] && sites=1 || sites="$(nproc)"; }
  case "$sites" in *[!0-9]*|0) echo "profile: --sites must be a positive number, got '$sites'" >&2; return 2 ;; esac

  . "$root/scripts/lib/local-server.sh"
  . "$root/scripts/lib/local-cluster.sh"
  local_cluster_check_options "$cluster_hosts" "$kfactor" "$servers" || return 2
  trap profile_stop EXIT
  trap 'profile_stop; exit 130' INT
  trap 'profile_stop; exit 143' TERM
  local classes=()
  [ -n "$PROFILE_CLASSES" ] && classes=(--classes "$PROFILE_CLASSES")
  local topology="$sites site(s)"
  if [ -n "$cluster_hosts" ]; then
    topology="$cluster_hosts hosts x $sites site(s), K=$kfactor"
    echo "profile: starting a local cluster ($topology, $PROFILE_NAME schema)"
    local_cluster_start profile "$cluster_hosts" "$kfactor" "$sites" --schema "$PROFILE_SCHEMA" \
      ${classes[@]+"${classes[@]}"} || return 3
    echo "profile: cluster ready: $LOCAL_CLUSTER_SERVERS"
    servers="$LOCAL_CLUSTER_SERVERS"
  elif [ -z "$servers" ]; then
    if [ ! -f "$root/host-java/server/target/classpath.txt" ]; then
      echo "profile: the server is not built; run scripts/build first" >&2
      return 2
    fi
    echo "profile: starting a local server ($PROFILE_NAME schema, $sites site(s))"
    local_server_start profile --schema "$PROFILE_SCHEMA" ${classes[@]+"${classes[@]}"} --sites "$sites" \
      --port 0 --http-port -1 || return 3
    echo "profile: $LOCAL_SERVER_READY"
    servers="$LOCAL_SERVER_ADDRESS"
  fi
  local cpu title status=0
  cpu="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  title="$PROFILE_NAME, $driver driver, $topology, $(nproc) x ${cpu:-unknown CPU}, $(date -u +%Y-%m-%d)"
  python3 "$root/bench/common/profile/latency_profile.py" --out "$out" --title "$title" \
    ${profile_args[@]+"${profile_args[@]}"} -- "$root/bench/$PROFILE_NAME/run" --driver "$driver" \
    --servers "$servers" ${driver_args[@]+"${driver_args[@]}"} || status=$?
  profile_stop
  return "$status"
}

# Stops the local server or cluster this profile started, if any.
profile_stop() {
  local_server_stop
  local_cluster_stop
}
