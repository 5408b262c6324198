# syntax=docker/dockerfile:1
# The service as an image: the compiled server and the admin app's build on the production dependencies
# only, run as the unprivileged `node` user. The RUN steps are scripts/deploy/recipe.sh, which CI runs
# without Docker (scripts/ci/container-recipe.sh); docs/operations.md, "Deployment".
#
#   docker build -t licensing .
#   docker run -p 3000:3000 -e DATABASE_URL=… -e LICENSING_MASTER_KEY=… licensing

ARG NODE_IMAGE=node:20-bookworm-slim

# Build: every dependency, the builds, then the pruned runtime tree in /app.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY . .
RUN scripts/deploy/recipe.sh install
RUN scripts/deploy/recipe.sh build
RUN scripts/deploy/recipe.sh prune /app

# Run: the pruned tree only (no sources, compilers or devDependencies), owned by root and read-only to the
# server; /data (DATA_DIR) is the one place it writes: the embedded database when DATABASE_URL is unset.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# /readyz answers 200 while the database answers (/healthz only says the process runs). The slim image has
# no curl: Node's fetch.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) finishes the requests in flight and closes the pool; no npm in between to eat it.
CMD ["node", "apps/server/dist/main.js"]
