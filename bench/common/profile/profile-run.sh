# Sourced, not run: the shared body of bench/voter/profile and bench/kv/profile.
# The caller sets PROFILE_NAME (voter or kv), PROFILE_SCHEMA (its DDL),
# PROFILE_CLASSES (procedure classes, or empty) and PROFILE_DEFAULT_OUT, then
# calls profile_main "$@". It starts one local server (unless --servers is
# given), runs bench/common/profile/latency_profile.py with bench/$PROFILE_NAME/run
# against it, and stops the server (also on Ctrl-C or a failure).

profile_usage() {
  cat <<USAGE
Usage: bench/$PROFILE_NAME/profile [--driver cpp|java] [--servers LIST] [--sites N] [--out DIR]
       [--step-seconds S] [--warmup S] [--fractions F,...] [--rates R,...] [-- driver options...]

A latency-throughput profile of the $PROFILE_NAME workload: one run as fast as
the server answers finds the saturation rate, then runs at fixed rates from
above it stepping down (1.25, 1.0, 0.9 ... 0.1 of it by default), each with its
own warm-up, against one local server kept up for every step (or the servers
you name). Writes profile.csv (step, target_rate, tps, p50_ms, p99_ms,
p999_ms, max_ms) and profile.svg (latency against throughput, log scale) into
--out, and prints one line per step. It builds nothing: run scripts/build first.

  --driver cpp|java     the driver (default cpp)
  --servers LIST        running servers with the $PROFILE_NAME schema (no local server)
  --sites N             sites of the local server (default: nproc)
  --out DIR             where profile.csv and profile.svg go (default $PROFILE_DEFAULT_OUT)
  --step-seconds S      measured seconds per step (default 20)
  --warmup S            warm-up seconds per step (default 5)
  --fractions F,...     fractions of the saturation rate, highest first
  --rates R,...         fixed rates instead (no saturation run)
  -- OPTIONS            passed to every driver run (e.g. -- --preload 100000 for kv)
  -h, --help            this help

Exit code: 0 when every step ran; 1 when a step failed (the steps so far
are in profile.csv); 2 for bad options or a missing build; 3 when the local
server does not start.
USAGE
}

profile_main() {
  local root driver=cpp servers="" sites out="$PROFILE_DEFAULT_OUT" profile_args=() driver_args=()
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
  sites="$(nproc)"
  while [ $# -gt 0 ]; do
    case "$1" in
      -h|--help) profile_usage; return 0 ;;
      --driver|--servers|--sites|--out|--step-seconds|--warmup|--fractions|--rates)
        [ $# -ge 2 ] || { echo "profile: $1 needs a value" >&2; return 2; }
        case "$1" in
          --driver) driver="$2" ;;
          --servers) servers="$2" ;;
          --sites) sites="$2" ;;
          --out) out="$2" ;;
          *) profile_args+=("$1" "$2") ;;
        esac
        shift 2 ;;
      --) shift; driver_args+=("$@"); break ;;
      *) echo "profile: unknown option '$1' (bench/$PROFILE_NAME/profile --help)" >&2; return 2 ;;
    esac
  done
  case "$driver" in cpp|java) ;; *) echo "profile: --driver must be cpp or java, got '$driver'" >&2; return 2 ;; esac
  case "$sites" in ''|*[!0-9]*|0) echo "profile: --sites must be a positive number, got '$sites'" >&2; return 2 ;; esac

  . "$root/scripts/lib/local-server.sh"
  trap local_server_stop EXIT
  trap 'local_server_stop; exit 130' INT
  trap 'local_server_stop; exit 143' TERM
  if [ -z "$servers" ]; then
    if [ ! -f "$root/host-java/server/target/classpath.txt" ]; then
      echo "profile: the server is not built; run scripts/build first" >&2
      return 2
    fi
    local classes=()
    [ -n "$PROFILE_CLASSES" ] && classes=(--classes "$PROFILE_CLASSES")
    echo "profile: starting a local server ($PROFILE_NAME schema, $sites site(s))"
    local_server_start profile --schema "$PROFILE_SCHEMA" ${classes[@]+"${classes[@]}"} --sites "$sites" \
      --port 0 --http-port -1 || return 3
    echo "profile: $LOCAL_SERVER_READY"
    servers="$LOCAL_SERVER_ADDRESS"
  fi
  local cpu title status=0
  cpu="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  title="$PROFILE_NAME, $driver driver, $sites site(s), $(nproc) x ${cpu:-unknown CPU}, $(date -u +%Y-%m-%d)"
  python3 "$root/bench/common/profile/latency_profile.py" --out "$out" --title "$title" \
    ${profile_args[@]+"${profile_args[@]}"} -- "$root/bench/$PROFILE_NAME/run" --driver "$driver" \
    --servers "$servers" ${driver_args[@]+"${driver_args[@]}"} || status=$?
  local_server_stop
  return "$status"
}
