#!/usr/bin/env bash
# A throwaway PostgreSQL 15 primary, a streaming replica of it (pg_basebackup -R) and PgBouncer in
# transaction pooling in front of the primary, all inside one folder, on ports of their own: the
# picture of docs/deployment.md on one machine. Used by the scale pass (scripts/test-scale.sh) and
# by the bench's replica mode (`npm run bench -- --replica`, bench/replica-mode.ts), so both start
# and stop the same thing.
#
#   scripts/pg-cluster.sh start DIR PRIMARY_PORT REPLICA_PORT POOLER_PORT
#   scripts/pg-cluster.sh stop DIR        # stops all three (immediate) and removes DIR
#
# DIR must exist and be empty (the caller makes it, e.g. with mktemp -d, and calls `stop` on every
# exit path, even after a `start` that failed half-way). The servers listen on 127.0.0.1 only,
# trust every local connection and have a `postgres` superuser; their logs are DIR/primary.log,
# DIR/replica.log and DIR/pgbouncer.log. Pick ports below Linux's ephemeral range (32768–60999):
# there no outgoing connection of a busy run can hold one when a server binds it (55432 once
# failed to bind for that reason).
#
# Environment:
#   PG_BIN                  PostgreSQL 15 server binaries (/usr/lib/postgresql/15/bin)
#   PG_CLUSTER_DURABLE=1    keep fsync and full_page_writes on, as a real server (the bench: a
#                           send's commit then pays its WAL flush as it does on the machine's
#                           cluster). Default off: a test cluster that is thrown away buys nothing
#                           with durability.
#   PG_CLUSTER_POOL_SIZE    PgBouncer's default_pool_size (20)
# Both clusters run with autovacuum = off, as the machine's cluster does: the scale pass's plan
# tests (history-plan) assert shapes for tables without statistics, and the bench vacuums and
# analyzes its data set itself.
set -euo pipefail

PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"

# PostgreSQL and PgBouncer refuse to run as root: as root, the clusters run as the postgres user.
if [ "$(id -u)" = 0 ]; then
  as_db() { runuser -u postgres -- "$@"; }
else
  as_db() { "$@"; }
fi

usage() {
  echo "usage: $0 start DIR PRIMARY_PORT REPLICA_PORT POOLER_PORT | stop DIR" >&2
  exit 2
}

start() {
  local work="$1" primary_port="$2" replica_port="$3" pooler_port="$4"
  if ! command -v pgbouncer >/dev/null; then
    echo "pg-cluster: pgbouncer is not installed (Debian: apt-get install -y pgbouncer)" >&2
    exit 1
  fi
  for bin in initdb pg_ctl pg_basebackup; do
    if [ ! -x "$PG_BIN/$bin" ]; then
      echo "pg-cluster: $PG_BIN/$bin not found (PostgreSQL 15 server binaries; set PG_BIN)" >&2
      exit 1
    fi
  done
  [ -d "$work" ] || { echo "pg-cluster: $work is not a folder" >&2; exit 1; }
  [ "$(id -u)" = 0 ] && chown postgres: "$work"
  chmod 700 "$work"

  local durability="# A throwaway cluster: durability buys nothing here.
fsync = off
full_page_writes = off"
  [ "${PG_CLUSTER_DURABLE:-0}" = 1 ] && durability="# Durable as a real server (PG_CLUSTER_DURABLE=1): commits pay their WAL flush."

  as_db "$PG_BIN/initdb" -D "$work/primary" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
  cat >>"$work/primary/postgresql.conf" <<EOF
port = $primary_port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$work'
max_connections = 200
wal_level = replica
max_wal_senders = 4
$durability
# As the machine's cluster: the scale pass's plan tests (history-plan) assert shapes for tables
# without statistics, which autovacuum would gather mid-run.
autovacuum = off
EOF
  as_db "$PG_BIN/pg_ctl" -D "$work/primary" -l "$work/primary.log" -w start >/dev/null

  # The replica: a base backup with standby.signal and primary_conninfo (-R), on its own port.
  as_db "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$work/replica" -R -X stream --no-sync
  cat >>"$work/replica/postgresql.conf" <<EOF
port = $replica_port
# Queries on the replica are not cancelled by the vacuum of rows they still read.
hot_standby_feedback = on
EOF
  as_db "$PG_BIN/pg_ctl" -D "$work/replica" -l "$work/replica.log" -w start >/dev/null

  # PgBouncer in transaction pooling; the wildcard lets it reach databases made after it started.
  cat >"$work/userlist.txt" <<EOF
"postgres" ""
EOF
  cat >"$work/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=$primary_port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $pooler_port
unix_socket_dir =
auth_type = trust
auth_file = $work/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = ${PG_CLUSTER_POOL_SIZE:-20}
# A client waiting this long for a server connection gets an error instead of hanging a test.
query_wait_timeout = 60
logfile = $work/pgbouncer.log
pidfile = $work/pgbouncer.pid
EOF
  [ "$(id -u)" = 0 ] && chown postgres: "$work/userlist.txt" "$work/pgbouncer.ini"
  as_db pgbouncer -d "$work/pgbouncer.ini"
  # -d returns before the daemon has written its pid file and bound its port: wait for both, so
  # the caller can read the pid and connect at once.
  for _ in $(seq 1 100); do
    [ -s "$work/pgbouncer.pid" ] && psql "postgres://postgres@127.0.0.1:$pooler_port/postgres" -qAtc "select 1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "pg-cluster: PgBouncer did not answer on :$pooler_port (see $work/pgbouncer.log)" >&2
  exit 1
}

stop() {
  local work="$1"
  set +e
  if [ -f "$work/pgbouncer.pid" ]; then kill "$(cat "$work/pgbouncer.pid")" 2>/dev/null; fi
  for dir in replica primary; do
    [ -f "$work/$dir/postmaster.pid" ] && as_db "$PG_BIN/pg_ctl" -D "$work/$dir" -m immediate -w stop >/dev/null 2>&1
  done
  rm -rf "$work"
}

case "${1:-}" in
  start) [ $# = 5 ] || usage; start "$2" "$3" "$4" "$5" ;;
  stop) [ $# = 2 ] || usage; stop "$2" ;;
  *) usage ;;
esac
