#!/usr/bin/env bash
# The Dockerfile's recipe without Docker (base images cannot be pulled on the CI machines): copies the
# checkout (tracked and untracked files; no node_modules, builds or .data) into a temporary directory, runs
# the steps the Dockerfile RUNs (scripts/deploy/recipe.sh install, build, prune), then starts the pruned
# tree as the image's CMD does (`node apps/server/dist/main.js` with only the image's environment) against
# a fresh PostgreSQL database and Redis, waits for /readyz, checks the admin app, the API and a sign-in,
# stops it with SIGTERM (exit 0, no error logged) and removes everything.
#
#   scripts/ci/container-recipe.sh                  the install step is this checkout's own `npm ci`
#                                                   (.ci/run's, the same command on the same lock file):
#                                                   its node_modules are hard-linked into the copy
#   scripts/ci/container-recipe.sh --fresh-install  runs `recipe.sh install` in the copy too (minutes)
#
# PostgreSQL: TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres), where a
# database of its own is created and dropped; without a reachable server the tree starts on the embedded
# database (PGlite) instead, and says so. Redis: TEST_REDIS_URL when set.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
admin_url=${TEST_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}
started=$SECONDS
say() { printf 'container-recipe: %s (%ds)\n' "$*" $((SECONDS - started)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/licensing-recipe.XXXXXX")
server_pid=
database=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -9 "$server_pid" 2>/dev/null || true; fi
  if [ -n "$database" ]; then psql -q "$admin_url" -c "drop database if exists $database with (force)" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# 1. The build context: what `COPY . .` copies (.dockerignore leaves out node_modules, builds, .data, .git).
git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$work" --one-top-level=src
say "copied the checkout to $work/src"

# 2. The build stage and the prune: the very steps the Dockerfile RUNs.
if [ "${1:-}" = --fresh-install ]; then
  (cd "$work/src" && scripts/deploy/recipe.sh install)
  say "installed (npm ci)"
else
  [ -d node_modules ] || { echo "container-recipe: run npm ci first (or pass --fresh-install)" >&2; exit 1; }
  for modules in node_modules apps/*/node_modules packages/*/node_modules; do
    [ -d "$modules" ] && cp -al "$modules" "$work/src/$modules"
  done
  say "hard-linked this checkout's node_modules (npm ci) into the copy"
fi
(cd "$work/src" && scripts/deploy/recipe.sh build)
say "built"
(cd "$work/src" && scripts/deploy/recipe.sh prune "$work/app")
rm -rf "$work/src"
say "pruned into $work/app ($(du -sh "$work/app" | cut -f1), node_modules $(du -sh "$work/app/node_modules" | cut -f1))"

# What the image must not carry: sources, devDependencies, the other workspaces' dependencies.
# (typescript stays: @trpc/server names it as a peer dependency.)
for absent in apps/server/src packages/core/src apps/admin/src node_modules/vitest \
  node_modules/vite node_modules/eslint node_modules/react node_modules/@mantine/core; do
  if [ -e "$work/app/$absent" ]; then
    echo "container-recipe: the pruned tree has $absent" >&2
    exit 1
  fi
done

# 3. Start it as the image does: CMD node apps/server/dist/main.js, only the image's environment.
env_db=()
if pg_isready -q -d "$admin_url" 2>/dev/null; then
  database=licensing_recipe_$$
  psql -q "$admin_url" -c "create database $database"
  env_db=(DATABASE_URL="${admin_url%/*}/$database")
  say "starting on PostgreSQL (database $database)"
else
  say "no PostgreSQL at $admin_url: starting on the embedded database (PGlite)"
fi
mkdir -p "$work/data"
master_key=$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64"))')
(cd "$work/app" && exec env -i PATH="$PATH" HOME="$work" NODE_ENV=production PORT=0 DATA_DIR="$work/data" \
  LICENSING_MASTER_KEY="$master_key" ${TEST_REDIS_URL:+REDIS_URL="$TEST_REDIS_URL"} "${env_db[@]}" \
  BOOTSTRAP_OPERATOR_EMAIL=ops@example.com BOOTSTRAP_OPERATOR_PASSWORD=ops-password \
  node apps/server/dist/main.js >"$work/server.log" 2>&1) &
server_pid=$!

port=
for _ in $(seq 1 600); do
  port=$(grep -o '"port":[0-9]*' "$work/server.log" | head -n 1 | cut -d: -f2 || true)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "container-recipe: the server exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.log" >&2; echo "container-recipe: no port within 60 s" >&2; exit 1; }
base=http://127.0.0.1:$port
for _ in $(seq 1 300); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/readyz")" = 200 ] && break
  sleep 0.1
done
check() { # check NAME EXPECTED-STATUS CURL-ARGS…
  local name=$1 want=$2
  shift 2
  local got
  got=$(curl -s -o "$work/body" -w '%{http_code}' "$@")
  if [ "$got" != "$want" ]; then
    cat "$work/server.log" >&2
    echo "container-recipe: $name answered $got, not $want: $(head -c 300 "$work/body")" >&2
    exit 1
  fi
}
check /readyz 200 "$base/readyz"
say "/readyz answers 200 on port $port"
check /healthz 200 "$base/healthz"
# The admin build is served at / with its assets.
check "the admin app" 200 "$base/"
asset=$(grep -o '/assets/[^"]*\.js' "$work/body" | head -n 1)
[ -n "$asset" ] || { echo "container-recipe: the admin page names no script" >&2; exit 1; }
check "the admin app's $asset" 200 "$base$asset"
check /api/v1/openapi.json 200 "$base/api/v1/openapi.json"
# The API with the database and the sealed-key machinery behind it: the operator created at start signs in.
check "POST /api/v1/panel/auth/login" 200 -H 'content-type: application/json' \
  -d '{"email":"ops@example.com","password":"ops-password"}' "$base/api/v1/panel/auth/login"
check "a wrong password" 401 -H 'content-type: application/json' \
  -d '{"email":"ops@example.com","password":"wrong-password"}' "$base/api/v1/panel/auth/login"
say "the admin app, the OpenAPI document and a sign-in answer"

# 4. SIGTERM (docker stop): finishes in-flight requests, closes the pool, exits 0.
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=
if [ "$status" != 0 ]; then
  cat "$work/server.log" >&2
  echo "container-recipe: exited $status after SIGTERM" >&2
  exit 1
fi
if grep -q '"level":[56]0' "$work/server.log"; then
  cat "$work/server.log" >&2
  echo "container-recipe: the server logged an error" >&2
  exit 1
fi
say "stopped cleanly; passed"
