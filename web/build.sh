#!/bin/sh
# Builds prerel's playground, a static site, into DIR (default web/dist):
# index.html, app.js, style.css, prerel.wasm (web/wasm compiled with
# GOOS=js GOARCH=wasm) and wasm_exec.js. Serve DIR from any static host,
# or locally with: go run ./cmd/prerel serve --dir DIR
#
#   web/build.sh [DIR]
set -eu
out=${1:-}
case $out in
  "") out=web/dist ;;
  /*) ;;
  *) out="$PWD/$out" ;;
esac
cd "$(dirname "$0")/.."
exec go run ./web/internal/buildsite -o "$out"
