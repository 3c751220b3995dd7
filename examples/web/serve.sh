#!/usr/bin/env bash
# Builds the page and serves it on http://127.0.0.1:${PORT:-8000}/ (loopback only). Open it in a
# browser with WebGPU (Chrome, Edge; Firefox and Safari where WebGPU is enabled).
set -euo pipefail
cd "$(dirname "$0")"
bash build.sh
echo "serving http://127.0.0.1:${PORT:-8000}/"
exec python3 -m http.server "${PORT:-8000}" --bind 127.0.0.1
