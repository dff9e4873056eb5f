#!/usr/bin/env bash
# reference.sh installs the reference MCP filesystem server
# (@modelcontextprotocol/server-filesystem) from the npm registry into a
# cache folder and prints the path of its program, for toolbench context
# and the peers suite:
#
#   ref=$(bash bench/reference.sh)
#   node "$ref" /tmp/ctx
#
# It runs on the Node already installed (the server needs no newer one).
set -euo pipefail
REFERENCE_VERSION=${REFERENCE_VERSION:-2026.8.31}
cache=${TOOLSERVER_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolserver-ci}
dir=$cache/server-filesystem-$REFERENCE_VERSION
if [ ! -f "$dir/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" ]; then
  mkdir -p "$dir"
  (cd "$dir" && npm install --silent --no-audit --no-fund --no-save "@modelcontextprotocol/server-filesystem@$REFERENCE_VERSION" >&2)
fi
echo "$dir/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
