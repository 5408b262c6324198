#!/usr/bin/env bash
# The backup and restore drill of docs/operations.md ("Backup and restore"), performed:
#
# PostgreSQL: the compiled server (what `npm start` runs) on a database of its own issues a license,
# activates it and takes a heartbeat; `pg_dump -Fc` while it runs; the server stops and the database is
# dropped; `pg_restore` into a new empty database; the restored database with ANOTHER master key refuses
# to start (the dump alone opens nothing); with the same key the service reads its license back, answers
# the activation's heartbeat with a marker signed by the template's key, and signs a new license with it
# (scripts/ci/backup-drill.ts).
#
# The embedded database (PGlite): the same, with the server stopped, DATA_DIR/pglite copied away
# (tar), the data directory removed, and the copy put back.
#
#   scripts/ci/backup-drill.sh            both
#   scripts/ci/backup-drill.sh postgres   or one of them
#   scripts/ci/backup-drill.sh embedded
#
# PostgreSQL: TEST_DATABASE_URL's server (default postgres://postgres:postgres@127.0.0.1:5432/postgres);
# pg_dump and pg_restore of a version at least the server's.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
admin_url=${TEST_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}
started=$SECONDS
say() { printf 'backup-drill: %s (%ds)\n' "$*" $((SECONDS - started)); }
fail() {
  [ -f "$work/server.log" ] && tail -n 40 "$work/server.log" >&2
  echo "backup-drill: $*" >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/licensing-drill.XXXXXX")
server_pid=
databases=()
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -9 "$server_pid" 2>/dev/null || true; fi
  for db in "${databases[@]}"; do psql -q "$admin_url" -c "drop database if exists $db with (force)" || true; done
  rm -rf "$work"
}
trap cleanup EXIT

export BOOTSTRAP_OPERATOR_EMAIL=ops@example.com BOOTSTRAP_OPERATOR_PASSWORD=ops-password
key() { node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64"))'; }
master_key=$(key)
drill() { node --import tsx scripts/ci/backup-drill.ts "$@"; }

# What `npm start` runs, without its build check (built here first when stale).
node scripts/build.mjs server >/dev/null

# start_server KEY [VAR=VALUE…]: starts the compiled server on a free port; sets $base.
start_server() {
  local key=$1
  shift
  : >"$work/server.log"
  env PORT=0 LOG_LEVEL=info DATABASE_URL= REDIS_URL= DATA_DIR="$work/data" LICENSING_MASTER_KEY="$key" "$@" \
    node apps/server/dist/main.js >"$work/server.log" 2>&1 &
  server_pid=$!
  local port=
  for _ in $(seq 1 600); do
    port=$(grep -o '"port":[0-9]*' "$work/server.log" | head -n 1 | cut -d: -f2 || true)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || fail "the server exited"
    sleep 0.1
  done
  [ -n "$port" ] || fail "no port within 60 s"
  base=http://127.0.0.1:$port
  for _ in $(seq 1 300); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && return 0
    sleep 0.1
  done
  fail "/readyz did not answer 200"
}

stop_server() {
  kill -TERM "$server_pid"
  local status=0
  wait "$server_pid" || status=$?
  server_pid=
  [ "$status" = 0 ] || fail "the server exited $status after SIGTERM"
}

# refuses KEY [VAR=VALUE…]: the server must exit at start, naming LICENSING_MASTER_KEY.
refuses() {
  local key=$1
  shift
  local status=0
  env PORT=0 LOG_LEVEL=info DATABASE_URL= REDIS_URL= DATA_DIR="$work/data" LICENSING_MASTER_KEY="$key" "$@" \
    timeout 60 node apps/server/dist/main.js >"$work/refused.log" 2>&1 || status=$?
  [ "$status" != 0 ] && [ "$status" != 124 ] || fail "started with another master key (exit $status)"
  grep -q LICENSING_MASTER_KEY "$work/refused.log" || fail "the refusal does not name LICENSING_MASTER_KEY: $(cat "$work/refused.log")"
}

drill_postgres() {
  pg_isready -q -d "$admin_url" || fail "no PostgreSQL at $admin_url"
  local db=licensing_drill_$$ url
  url="${admin_url%/*}/$db"
  databases+=("$db")
  psql -q "$admin_url" -c "create database $db"
  start_server "$master_key" DATABASE_URL="$url"
  drill seed "$base" "$work/state.json"

  # The backup, taken while the service runs (one consistent snapshot).
  pg_dump -Fc --file="$work/licensing.dump" "$url"
  say "pg_dump -Fc: $(du -h "$work/licensing.dump" | cut -f1)"
  stop_server

  # The disaster, and the restore into a new empty database.
  psql -q "$admin_url" -c "drop database $db with (force)"
  psql -q "$admin_url" -c "create database $db"
  pg_restore --exit-on-error --no-owner --dbname="$url" "$work/licensing.dump"
  say "dropped, restored with pg_restore"
  # Check: the restored database has the rows it had.
  [ "$(psql -qtA "$url" -c 'select count(*) from licenses')" = 1 ] || fail "the restored database has no license"

  refuses "$(key)" DATABASE_URL="$url"
  say "another master key is refused"
  start_server "$master_key" DATABASE_URL="$url"
  drill verify "$base" "$work/state.json"
  stop_server
  say "PostgreSQL: passed"
}

drill_embedded() {
  rm -rf "$work/data"
  start_server "$master_key"
  drill seed "$base" "$work/state.json"
  # The embedded database is one process's files: stop the server, then copy the directory.
  stop_server
  tar -C "$work/data" -czf "$work/pglite.tar.gz" pglite
  say "stopped, DATA_DIR/pglite archived: $(du -h "$work/pglite.tar.gz" | cut -f1)"
  rm -rf "$work/data"
  mkdir -p "$work/data"
  tar -C "$work/data" -xzf "$work/pglite.tar.gz"
  say "data directory removed, archive restored"
  # The generated development key went with DATA_DIR; set explicitly, it was never there.
  [ ! -e "$work/data/master.key" ] || fail "a key file was in DATA_DIR"
  refuses "$(key)"
  say "another master key is refused"
  start_server "$master_key"
  drill verify "$base" "$work/state.json"
  stop_server
  say "embedded database: passed"
}

case "${1:-both}" in
  postgres) drill_postgres ;;
  embedded) drill_embedded ;;
  # (Not `a && b`: that would run them without set -e.)
  both)
    drill_postgres
    drill_embedded
    ;;
  *) echo "usage: scripts/ci/backup-drill.sh [postgres|embedded]" >&2; exit 2 ;;
esac
