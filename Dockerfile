# The connector alone, compiled, as in production (docs/operations.md, "Container image"). It
# loads no sandbox module: point it at a provider with UPSTREAM_*, or at a sandbox elsewhere with
# SANDBOX_PUBLIC_URL.
#
#   docker build -t countersign .
#   docker run -p 8080:8080 -e PUBLIC_URL=https://connector.example.com -e VAULT_KEY=... \
#     -e UPSTREAM_PROFILE=google -e UPSTREAM_CLIENT_ID=... -e UPSTREAM_CLIENT_SECRET=... \
#     -v countersign-data:/data countersign
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
# npm ci builds (tsc -b, the views) and checks that SQLite's driver loads: Node's own, so nothing
# is compiled. better-sqlite3, optional and for Node 20 only, is fetched prebuilt or, with no
# compiler here, skipped; the prune drops it, with every other optional and development package.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --omit=optional --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/sqlite/package.json packages/sqlite/
COPY --from=build /app/packages/sqlite/dist packages/sqlite/dist
COPY --from=build /app/packages/environment/package.json packages/environment/
COPY --from=build /app/packages/environment/dist packages/environment/dist
COPY --from=build /app/packages/connector/package.json packages/connector/
COPY --from=build /app/packages/connector/bin packages/connector/bin
COPY --from=build /app/packages/connector/dist packages/connector/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "process.exitCode = 1; fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => { process.exitCode = r.ok ? 0 : 1 }, () => {})"]
# The command itself, not `node <command>`: its first line starts Node with the connector's heap
# settings (packages/connector/bin/countersign.js).
CMD ["/app/packages/connector/bin/countersign.js", "start"]
