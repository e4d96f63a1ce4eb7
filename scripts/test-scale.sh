#!/usr/bin/env bash
# The scale pass (issue 22, docs/deployment.md): a throwaway PostgreSQL 15 primary, a streaming
# replica of it (pg_basebackup -R) and PgBouncer in transaction pooling in front of the primary,
# all in a temporary folder on their own ports; then the API suite and the scale tests
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

if ! command -v pgbouncer >/dev/null; then
  echo "test-scale: pgbouncer is not installed (Debian: apt-get install -y pgbouncer)" >&2
  exit 1
fi
for bin in initdb pg_ctl pg_basebackup; do
  if [ ! -x "$PG_BIN/$bin" ]; then
    echo "test-scale: $PG_BIN/$bin not found (PostgreSQL 15 server binaries; set PG_BIN)" >&2
    exit 1
  fi
done

# PostgreSQL and PgBouncer refuse to run as root: as root, the clusters run as the postgres user.
if [ "$(id -u)" = 0 ]; then
  as_db() { runuser -u postgres -- "$@"; }
else
  as_db() { "$@"; }
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/wa-scale.XXXXXX")"
[ "$(id -u)" = 0 ] && chown postgres: "$WORK"
chmod 700 "$WORK"

teardown() {
  set +e
  if [ -f "$WORK/pgbouncer.pid" ]; then kill "$(cat "$WORK/pgbouncer.pid")" 2>/dev/null; fi
  for dir in replica primary; do
    [ -f "$WORK/$dir/postmaster.pid" ] && as_db "$PG_BIN/pg_ctl" -D "$WORK/$dir" -m immediate -w stop >/dev/null 2>&1
  done
  rm -rf "$WORK"
}
trap teardown EXIT
# A signal ends the script through its EXIT trap too (bash skips it when killed outright).
trap 'exit 130' INT TERM

started=$(date +%s)
echo "== scale pass: primary :$PRIMARY_PORT, replica :$REPLICA_PORT, PgBouncer :$POOLER_PORT in $WORK =="

as_db "$PG_BIN/initdb" -D "$WORK/primary" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
cat >>"$WORK/primary/postgresql.conf" <<EOF
port = $PRIMARY_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$WORK'
max_connections = 200
wal_level = replica
max_wal_senders = 4
# A throwaway cluster: durability buys nothing here.
fsync = off
full_page_writes = off
# As the machine's cluster the PostgreSQL pass runs on: the suite's plan tests (history-plan)
# assert shapes for tables without statistics, which autovacuum would gather mid-run.
autovacuum = off
EOF
as_db "$PG_BIN/pg_ctl" -D "$WORK/primary" -l "$WORK/primary.log" -w start >/dev/null

# The replica: a base backup with standby.signal and primary_conninfo (-R), on its own port.
as_db "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$WORK/replica" -R -X stream --no-sync
cat >>"$WORK/replica/postgresql.conf" <<EOF
port = $REPLICA_PORT
# Queries on the replica are not cancelled by the vacuum of rows they still read.
hot_standby_feedback = on
EOF
as_db "$PG_BIN/pg_ctl" -D "$WORK/replica" -l "$WORK/replica.log" -w start >/dev/null

# PgBouncer in transaction pooling; the wildcard lets it reach databases made after it started.
cat >"$WORK/userlist.txt" <<EOF
"postgres" ""
EOF
cat >"$WORK/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$PRIMARY_PORT
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $POOLER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $WORK/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = ${SCALE_POOL_SIZE:-20}
# A client waiting this long for a server connection gets an error instead of hanging a test.
query_wait_timeout = 60
logfile = $WORK/pgbouncer.log
pidfile = $WORK/pgbouncer.pid
EOF
[ "$(id -u)" = 0 ] && chown postgres: "$WORK/userlist.txt" "$WORK/pgbouncer.ini"
as_db pgbouncer -d "$WORK/pgbouncer.ini"

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
# For tests/scale/replica-failover: how to stop and start the replica.
export SCALE_REPLICA_DIR="$WORK/replica"
export SCALE_PG_CTL="$PG_BIN/pg_ctl"
export SCALE_RUN_AS="$([ "$(id -u)" = 0 ] && echo postgres || true)"

status=0
VITE_CONFIG_NATIVE_IGNORE_WARNING=true npx vitest run --config vitest.scale.config.ts "$@" || status=$?
if [ "$status" != 0 ]; then
  # What the pooler and the servers said, before the folder goes.
  for log in pgbouncer.log primary.log replica.log; do
    echo "== $log (last 40 lines) =="
    tail -n 40 "$WORK/$log" 2>/dev/null || true
  done
fi
echo "== scale pass: $(($(date +%s) - started)) s, exit $status =="
exit $status
