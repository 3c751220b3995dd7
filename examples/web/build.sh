#!/usr/bin/env bash
# Builds the page's WebAssembly: the `web` example for wasm32-unknown-unknown, then
# wasm-bindgen's JavaScript glue into examples/web/pkg/. Needs `rustup target add
# wasm32-unknown-unknown` and wasm-bindgen-cli at the version of wasm-bindgen in Cargo.lock.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --target wasm32-unknown-unknown --no-default-features --features webgpu --example web
wasm-bindgen --target web --no-typescript --out-dir examples/web/pkg \
  target/wasm32-unknown-unknown/debug/examples/web.wasm
