#!/usr/bin/env bash
# The deployment recipe, written once: the Dockerfile RUNs these steps, and scripts/ci/container-recipe.sh
# runs the same ones in a temporary directory (base images cannot be pulled on the CI machines).
#
#   scripts/deploy/recipe.sh install      every dependency, devDependencies included (npm ci)
#   scripts/deploy/recipe.sh build        what `npm start` builds, from scratch: the compiled server
#                                         (apps/server/dist) and the admin app's static files (apps/admin/dist)
#   scripts/deploy/recipe.sh prune DEST   the runtime tree, copied to DEST: the two builds, the migrations,
#                                         and of node_modules only the production dependencies of
#                                         @licensing/server (npm ls --omit=dev: no devDependencies, nothing
#                                         that only the admin app, the SDK or the tools use). DEST starts with
#                                         `node apps/server/dist/main.js`.
#
# Each runs in the root of a checkout without node_modules or builds (what `docker build` copies).
set -euo pipefail
cd "$(dirname "$0")/../.."

# The workspace packages the compiled server needs at run time: it bundles their code but finds
# @licensing/db's migrations (packages/db/migrations) through node_modules/@licensing/db, and Node follows
# the links node_modules/@licensing/* -> ../../packages/* to their package.json.
runtime_packages=(api config-types contracts core db protocol)

case "${1:-}" in
  install)
    # The desktop sample's Electron is a devDependency of a workspace the image does not run.
    ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund
    ;;
  build)
    npm run build:server -- --force
    ;;
  prune)
    dest=${2:?usage: recipe.sh prune DEST}
    [ -f apps/server/dist/main.js ] && [ -f apps/admin/dist/index.html ] ||
      { echo "recipe: nothing built; run 'recipe.sh build' first" >&2; exit 1; }
    # Every package folder npm resolves for @licensing/server without devDependencies (peers included:
    # typescript is one of @trpc/server's), as paths relative to the root.
    mapfile -t modules < <(npm ls --omit=dev --workspace=@licensing/server --all --parseable |
      sed -n "s|^$PWD/||p" | sort -u)
    ((${#modules[@]} > 20)) || { echo "recipe: npm ls listed ${#modules[@]} packages" >&2; exit 1; }
    files=(package.json apps/server/package.json apps/server/dist apps/admin/dist packages/db/migrations)
    for name in "${runtime_packages[@]}"; do files+=("packages/$name/package.json"); done
    mkdir -p "$dest"
    # Symbolic links (the workspace packages) are copied as links.
    tar -cf - "${files[@]}" "${modules[@]}" | tar -xf - -C "$dest"
    ;;
  *)
    echo "usage: scripts/deploy/recipe.sh install | build | prune DEST" >&2
    exit 2
    ;;
esac
