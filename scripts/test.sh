#!/usr/bin/env bash
# `npm test`: the Vitest suite, then the browser suite — the second runs even when the first
# failed, so one failure never hides the other's result; the exit status fails if either did.
# Each suite's output is also kept in a temporary file, so the names of the failed tests can be
# repeated at the very end (CI keeps only the tail of a long log).
set -uo pipefail
cd "$(dirname "$0")/.."

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

npm run -s test:unit 2>&1 | tee "$logs/unit.log"
unit=${PIPESTATUS[0]}
npm run -s test:e2e 2>&1 | tee "$logs/e2e.log"
e2e=${PIPESTATUS[0]}

status() { [ "$1" = 0 ] && echo "passed" || echo "FAILED (exit $1)"; }
# Vitest names a failed test on a "FAIL" line, Playwright on a "✘" line (colour codes stripped).
failures() { sed -e 's/\x1b\[[0-9;]*m//g' "$1" | grep -E '^ *(FAIL |✘|×)' | sort -u | head -40; }
echo
if [ "$unit" != 0 ]; then
  echo "== Vitest failures:"
  failures "$logs/unit.log"
fi
if [ "$e2e" != 0 ]; then
  echo "== browser suite failures:"
  failures "$logs/e2e.log"
fi
echo "== npm test: Vitest suite $(status $unit); browser suite $(status $e2e)"
[ "$unit" = 0 ] && [ "$e2e" = 0 ]
