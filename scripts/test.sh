#!/usr/bin/env bash
# `npm test`: the Vitest suite, then the browser suite — the second runs even when the first
# failed, so one failure never hides the other's result; the exit status fails if either did.
set -uo pipefail
cd "$(dirname "$0")/.."

npm run -s test:unit
unit=$?
npm run -s test:e2e
e2e=$?

status() { [ "$1" = 0 ] && echo "passed" || echo "FAILED (exit $1)"; }
echo
echo "== npm test: Vitest suite $(status $unit); browser suite $(status $e2e)"
[ "$unit" = 0 ] && [ "$e2e" = 0 ]
