#!/usr/bin/env bash
# build-tflint.sh [DIR]: builds the real tflint of the end-to-end test
# (tflint_test.go) from the Go module proxy into DIR (by default
# ${XDG_CACHE_HOME:-~/.cache}/prerel/tflint-VERSION) and prints the
# binary's path on its last line. A binary already there is reused: the
# build takes several minutes of two cores.
set -euo pipefail
version=v0.64.0
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/prerel/tflint-$version}
if [ ! -x "$dir/tflint" ] || ! TFLINT_DISABLE_VERSION_CHECK=1 "$dir/tflint" --version 2>/dev/null | grep -q "${version#v}"; then
  mkdir -p "$dir"
  # A module's own build: tflint's go.mod, not this repository's.
  (cd "$dir" && GOBIN="$dir" GOFLAGS=-mod=mod go install "github.com/terraform-linters/tflint@$version")
fi
TFLINT_DISABLE_VERSION_CHECK=1 "$dir/tflint" --version >&2
echo "$dir/tflint"
