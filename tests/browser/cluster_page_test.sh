#!/usr/bin/env bash
# The cluster page (/cluster on every cluster host) in a real headless
# Chromium: starts a local cluster of three hosts with K = 1 on free loopback
# ports (scripts/cluster), loads host 0's cluster page, checks the hosts and
# partitions it shows, kills host 1 with SIGKILL and checks that the page
# shows it dead and its partition's new leader within 60 s, then restarts it
# (rejoin) and checks that the page shows it back with its copies within
# 90 s. Saves a screenshot to bench/cluster/results/cluster-page.png.
# Everything started is stopped at the end, also on failure, Ctrl-C or the
# time bound (300 s).
#
#   tests/browser/cluster_page_test.sh [--screenshot FILE]
#
# Needs: chromium and python3 (scripts/install-deps), the built server
# (scripts/build). Exits 0 when every check passes, 1 on a failed check,
# 2 when chromium or the jars are missing (never a silent pass), 124 when
# the time bound ran out.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"

case "${1:-}" in
  -h|--help)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exec python3 "$root/tests/browser/cluster_page_test.py" --help
    ;;
esac

if ! command -v python3 >/dev/null; then
  echo "cluster page test: FAILED, missing prerequisite: python3; run scripts/install-deps" >&2
  exit 2
fi
# After 300 s timeout sends SIGTERM; the test then stops what it started and exits.
# --foreground: Ctrl-C reaches the test, which cleans up the same way.
exec timeout --foreground --kill-after=60 300 python3 "$root/tests/browser/cluster_page_test.py" "$@"
