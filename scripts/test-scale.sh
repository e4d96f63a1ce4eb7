#!/usr/bin/env bash
# The scale pass (docs/deployment.md): a throwaway PostgreSQL 15 primary, a streaming
# replica of it (pg_basebackup -R) and PgBouncer in transaction pooling in front of the primary,
# all in a temporary folder on their own ports (scripts/pg-cluster.sh, shared with the bench's
# replica mode); then the API suite and the scale tests
# (vitest.scale.config.ts) run with DATABASE_URL = the pooler, DATABASE_DIRECT_URL = the primary,
# DATABASE_READ_URL = the replica. Installs nothing; everything it started is stopped on exit.
#
# Ports: SCALE_PRIMARY_PORT (25432), SCALE_REPLICA_PORT (25433), SCALE_POOLER_PORT (26432): below
# Linux's ephemeral range (32768–60999), so no outgoing connection of a busy test run can hold one
# of them when a server binds it (55432 once failed to bind for that reason).
# Binaries: PG_BIN (/usr/lib/postgresql/15/bin). Extra arguments go to vitest (e.g. one file).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
PRIMARY_PORT="${SCALE_PRIMARY_PORT:-25432}"
REPLICA_PORT="${SCALE_REPLICA_PORT:-25433}"
POOLER_PORT="${SCALE_POOLER_PORT:-26432}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/wa-scale.XXXXXX")"
# scripts/pg-cluster.sh stops what it started and removes the folder.
teardown() { bash scripts/pg-cluster.sh stop "$WORK"; }
trap teardown EXIT
# A signal ends the script through its EXIT trap too (bash skips it when killed outright).
trap 'exit 130' INT TERM

started=$(date +%s)
echo "== scale pass: primary :$PRIMARY_PORT, replica :$REPLICA_PORT, PgBouncer :$POOLER_PORT in $WORK =="
PG_BIN="$PG_BIN" PG_CLUSTER_POOL_SIZE="${SCALE_POOL_SIZE:-20}" \
  bash scripts/pg-cluster.sh start "$WORK" "$PRIMARY_PORT" "$REPLICA_PORT" "$POOLER_PORT"

DB="wa_scale"
psql "postgres://postgres@127.0.0.1:$PRIMARY_PORT/postgres" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE \"$DB\""
# The replica has the new database once it has replayed its creation.
for _ in $(seq 1 100); do
  psql "postgres://postgres@127.0.0.1:$REPLICA_PORT/$DB" -qAtc "select 1" >/dev/null 2>&1 && break
  sleep 0.1
done

export DATABASE_URL="postgres://postgres@127.0.0.1:$POOLER_PORT/$DB"
export DATABASE_DIRECT_URL="postgres://postgres@127.0.0.1:$PRIMARY_PORT/$DB"
export DATABASE_READ_URL="postgres://postgres@127.0.0.1:$REPLICA_PORT/$DB"
# The replica is reached directly (not through PgBouncer): its statements stay named.
export DATABASE_READ_POOLED=0
# For tests/scale/replica-failover.test.ts: how to stop and start the replica.
export SCALE_REPLICA_DIR="$WORK/replica"
export SCALE_PG_CTL="$PG_BIN/pg_ctl"
export SCALE_RUN_AS="$([ "$(id -u)" = 0 ] && echo postgres || true)"

status=0
# pipefail: the pipeline's status is Vitest's.
VITE_CONFIG_NATIVE_IGNORE_WARNING=true npx vitest run --config vitest.scale.config.ts "$@" 2>&1 | tee "$WORK/vitest.log" || status=$?
if [ "$status" != 0 ]; then
  # What the pooler and the servers said, before the folder goes.
  for log in pgbouncer.log primary.log replica.log; do
    echo "== $log (last 40 lines) =="
    tail -n 40 "$WORK/$log" 2>/dev/null || true
  done
  # Then the failed tests and their first error lines again, last: CI keeps only the tail of a
  # long log, and the server logs above would push Vitest's own summary out of it.
  echo "== scale pass failures =="
  sed -e 's/\x1b\[[0-9;]*m//g' "$WORK/vitest.log" \
    | grep -E '^ *(FAIL |×)|(AssertionError|Error):|^ *[-+] |Expected|Received|❯ tests/' | head -60
fi
echo "== scale pass: $(($(date +%s) - started)) s, exit $status =="
exit $status
