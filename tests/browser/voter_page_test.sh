#!/usr/bin/env bash
# The Voter live results page (bench/voter/web) in a real headless Chromium:
# starts a Voter server on free loopback ports, loads the page, puts a
# fixed-rate load on the server, and checks that the page follows the votes,
# equals the database once the load stops, shows an error banner while the
# server is down and recovers when it is back. Saves a screenshot to
# bench/voter/results/voter-page.png. Everything started is stopped at the
# end, also on failure, Ctrl-C or the time bound (120 s).
#
#   tests/browser/voter_page_test.sh [--rate N] [--seconds S] [--screenshot FILE]
#
# Needs: chromium and python3 (scripts/install-deps), the built jars
# (scripts/build). Exits 0 when every check passes, 1 on a failed check,
# 2 when chromium or the jars are missing (never a silent pass), 124 when
# the time bound ran out.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"

case "${1:-}" in
  -h|--help)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exec python3 "$root/tests/browser/voter_page_test.py" --help
    ;;
esac

if ! command -v python3 >/dev/null; then
  echo "voter page test: FAILED, missing prerequisite: python3; run scripts/install-deps" >&2
  exit 2
fi
# After 120 s timeout sends SIGTERM; the test then stops what it started and exits.
# --foreground: Ctrl-C reaches the test, which cleans up the same way.
exec timeout --foreground --kill-after=20 120 python3 "$root/tests/browser/voter_page_test.py" "$@"
