#!/usr/bin/env bash
# Installs the Node packages of the tests that drive real clients (src/test/node/*/package-lock.json, exactly as
# locked): the MCP TypeScript SDK and the Inspector's CLI (McpNodeClientsTest), Redocly and a TypeScript client
# generator (OpenApiClientTest). Run by ./mvnw at process-test-resources. Without Node.js 20+ and npm on the PATH it
# installs nothing and says so: those two tests are then skipped (dev.engram.NodeClients), unless
# ENGRAM_REQUIRE_NODE=1 (as .ci/run sets it), which makes them fail.
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" = true ]; then
  exit 0 # -DskipTests: no test runs, so the packages are not needed (and no registry is asked)
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "[engram] Node.js and npm are not on the PATH: McpNodeClientsTest and OpenApiClientTest will be skipped" \
       "(install Node.js 20 or newer to run them)" >&2
  exit 0
fi
for dir in */; do
  [ -f "$dir/package-lock.json" ] || continue
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
done
