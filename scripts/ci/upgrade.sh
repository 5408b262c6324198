#!/usr/bin/env bash
# The upgrade test (docs/operations.md, "Upgrading and rolling back"): the previous release
# (scripts/release/previous.mjs: the newest release of CHANGELOG.md that is not HEAD) writes data on
# PostgreSQL, then HEAD joins it on the same database and master key as in a rolling upgrade, and both serve.
#
#   1. The previous release's tree: `git archive` of its commit (the clone's tags are not needed), installed
#      and its server built as its own `npm run build:server -- server` does (not its admin app: a server
#      without it serves the API, which is what is tested). Kept in a cache outside the checkout, one tree
#      per release commit (LICENSING_UPGRADE_CACHE, default ~/.cache/licensing-upgrade): a fresh CI machine
#      installs it, a later run on the same machine reuses it, and an older release's tree is removed.
#   2. HEAD's server built (node scripts/build.mjs server).
#   3. scripts/ci/upgrade.ts starts the servers and checks: the previous release alone writes licenses
#      (one and a bulk), an activation, heartbeats, webhook deliveries and two sessions; two HEAD instances
#      start together on its database (HEAD migrates) while it runs; HEAD reads and serves all of it, and
#      the previous release goes on serving reads and writes after HEAD's migrations; every event is
#      delivered once; the previous release stops (the rollout is over), then starts again on the migrated
#      database (the rollback) and serves; two HEAD instances start together on an empty database.
#
#   scripts/ci/upgrade.sh                  the install of the previous release: hard links of this checkout's
#                                          node_modules when its package-lock.json is the same file (what
#                                          `npm ci` would install), otherwise `npm ci` (minutes)
#   scripts/ci/upgrade.sh --fresh-install  installs and builds it again with `npm ci`, cached or not
#   scripts/ci/upgrade.sh --from v0.4.0    from an older release of CHANGELOG.md instead (by hand)
#
# PostgreSQL: TEST_DATABASE_URL's server (default postgres://postgres:postgres@127.0.0.1:5432/postgres), where
# two databases of its own are created and dropped. Redis: TEST_REDIS_URL when set.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
admin_url=${TEST_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}
started=$SECONDS
say() { printf 'upgrade: %s (%ds)\n' "$*" $((SECONDS - started)); }

pg_isready -q -d "$admin_url" || { echo "upgrade: no PostgreSQL at $admin_url" >&2; exit 1; }
fresh= from=
while (($#)); do
  case $1 in
    --fresh-install) fresh=yes ;;
    --from) from=${2:?--from needs a tag}; shift ;;
    *) echo "usage: scripts/ci/upgrade.sh [--fresh-install] [--from vX.Y.Z]" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$from" ]; then
  # An older release of CHANGELOG.md than the previous one (by hand: CI tests the previous release).
  read -r tag commit < <(node --input-type=module -e '
    const { releases } = await import("./scripts/release/previous.mjs");
    const release = releases().find((r) => r.tag === process.argv[1]);
    if (!release) { console.error(`upgrade: no release ${process.argv[1]} in CHANGELOG.md`); process.exit(2); }
    console.log(release.tag, release.commit);' "$from")
  commit=$(git rev-parse "$commit^{commit}")
else
  read -r tag commit < <(node scripts/release/previous.mjs)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/licensing-upgrade.XXXXXX")
databases=()
cleanup() {
  local status=$?
  if [ "$status" != 0 ]; then
    for log in "$work"/*.log; do
      [ -f "$log" ] && { echo "--- $log (last 30 lines)" >&2; tail -n 30 "$log" >&2; }
    done
  fi
  for db in "${databases[@]}"; do psql -q "$admin_url" -c "drop database if exists $db with (force)" || true; done
  rm -rf "$work"
  if [ -n "${staging:-}" ]; then rm -rf "$staging"; fi
}
trap cleanup EXIT

# 1. The previous release, installed and built once per release commit in a cache outside the checkout
#    (a fresh CI machine starts without it; locally the next run reuses it, and the tree of an older release
#    is removed when the previous release changes).
cache=${LICENSING_UPGRADE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/licensing-upgrade}
old=$cache/$commit
if [ -n "$fresh" ] || [ ! -f "$old/.ready" ]; then
  mkdir -p "$cache"
  staging=$(mktemp -d "$cache/.staging.XXXXXX")
  git archive "$commit" | tar -x -C "$staging"
  linked=
  if [ -z "$fresh" ] && [ -d node_modules ] && git show "$commit:package-lock.json" | cmp -s - package-lock.json; then
    linked=yes
    for modules in node_modules apps/*/node_modules packages/*/node_modules; do
      [ -d "$modules" ] && [ -d "$staging/$(dirname "$modules")" ] || continue
      cp -al "$modules" "$staging/$modules" 2>/dev/null || { linked=; break; }
    done
  fi
  if [ -n "$linked" ]; then
    say "$tag ($commit): its package-lock.json is this checkout's, node_modules hard-linked"
  else
    rm -rf "$staging/node_modules" "$staging"/{apps,packages}/*/node_modules
    (cd "$staging" && ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund --prefer-offline --loglevel=error >/dev/null)
    say "$tag ($commit): npm ci"
  fi
  (cd "$staging" && node scripts/build.mjs server 2>"$work/old-build.log")
  touch "$staging/.ready"
  rm -rf "$old"
  mv -T "$staging" "$old" 2>/dev/null || rm -rf "$staging"
  staging=
  say "$tag: server built in $old"
else
  say "$tag ($commit): installed and built in $old (an earlier run)"
fi
# Only the previous release's tree is kept (a --from run keeps it too). Removing one takes minutes on a busy
# machine, so the others are moved aside and removed in the background, at the lowest priority.
if [ -z "$from" ]; then
  for dir in "$cache"/*; do
    [ "$dir" = "$old" ] || mv -T "$dir" "$(mktemp -u "$cache/.removed.XXXXXX")"
  done
  if compgen -G "$cache/.removed.*" >/dev/null; then
    (nice -n 19 rm -rf "$cache"/.removed.* >/dev/null 2>&1 &)
  fi
fi

# 2. HEAD (what `npm start` runs, without its build check; built here when stale).
node scripts/build.mjs server 2>"$work/head-build.log"
say "HEAD: server built"

# 3. The databases, and the test.
for db in licensing_upgrade_$$ licensing_upgrade_empty_$$; do
  psql -q "$admin_url" -c "create database $db"
  databases+=("$db")
done
env OLD_MAIN="$old/apps/server/dist/main.js" HEAD_MAIN="$repo/apps/server/dist/main.js" \
  DATABASE_URL="${admin_url%/*}/licensing_upgrade_$$" EMPTY_DATABASE_URL="${admin_url%/*}/licensing_upgrade_empty_$$" \
  LICENSING_MASTER_KEY="$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("base64"))')" \
  WORK="$work" OLD_RELEASE="$tag" ${TEST_REDIS_URL:+REDIS_URL="$TEST_REDIS_URL"} \
  node --import tsx scripts/ci/upgrade.ts
say "passed ($tag → HEAD)"
