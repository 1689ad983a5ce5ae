#!/usr/bin/env bash
# setup.sh DIR: writes the example root module (main.tf, prerel.hcl, and
# index.json, the versions listed, for prerel resolve) into
# DIR and, in DIR/mirror, a provider mirror in the unpacked layout that
# `init -plugin-dir` reads: example.com/prerel/demo at 1.0.0 and
# 1.1.0-beta.2 for this machine's platform (a stub program each, enough
# for init, which installs a provider without starting it).
set -euo pipefail
dir=${1:?usage: setup.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
platform=$(go env GOOS)_$(go env GOARCH)
mkdir -p "$dir"
cp "$here/main.tf" "$here/prerel.hcl" "$here/index.json" "$dir/"
for v in 1.0.0 1.1.0-beta.2; do
  p=$dir/mirror/example.com/prerel/demo/$v/$platform
  mkdir -p "$p"
  printf '#!/bin/sh\nexit 1\n' >"$p/terraform-provider-demo_v$v"
  chmod +x "$p/terraform-provider-demo_v$v"
done
