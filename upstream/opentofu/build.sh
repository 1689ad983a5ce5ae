#!/usr/bin/env bash
# build.sh OUT: builds OpenTofu v1.12.6 with prerel's gate at its
# version-selection call sites (opentofu.patch) into OUT/tofu.
#
# The source is the release's module from the Go module proxy, copied out
# of the read-only module cache; the patch is applied; go.mod gains a
# require of github.com/prerel/prerel and a replace onto this clone. The
# modules prerel would raise in OpenTofu's build list are held at
# OpenTofu's own versions (replace directives), so that without
# prerel.hcl the patched tofu runs exactly the release's dependencies.
#
# The binary is cached under ${XDG_CACHE_HOME:-~/.cache}/prerel by the
# hash of everything it is built from (prerel_hash in ../buildlib.sh):
# the release, this script, the patch, the Go version, prerel's go.mod
# and go.sum and the source files of the packages the gate compiles in.
# A second run with nothing changed, from any clone of the same commit,
# copies the cached binary.
set -euo pipefail

out=${1:?usage: build.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=v1.12.6
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/prerel

. "$repo/upstream/buildlib.sh"
hash=$(prerel_hash "$version" upstream/opentofu/build.sh upstream/opentofu/opentofu.patch)
cached=$cache_root/tofu-prerel-$version-$hash/tofu

if [ ! -x "$cached" ]; then
  src=$(go mod download -json "github.com/opentofu/opentofu@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [ -z "$src" ]; then
    echo "build.sh: go mod download github.com/opentofu/opentofu@$version gave no directory" >&2
    exit 1
  fi
  work=$(mktemp -d)
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  cp -R "$src" "$work/opentofu"
  chmod -R u+w "$work/opentofu"
  cd "$work/opentofu"
  # One module is let rise, because prerel's adapter of it needs the
  # newer API: Masterminds/semver (v3.4.0 → v3.5.0).
  prerel_join "$work" ./cmd/tofu OpenTofu " github.com/Masterminds/semver/v3 "
  patch -p1 --quiet --no-backup-if-mismatch <"$here/opentofu.patch"
  mkdir -p "$(dirname "$cached")"
  GOFLAGS=-mod=mod go build -o "$cached.tmp" ./cmd/tofu
  mv "$cached.tmp" "$cached"
  prerel_keep_one "$cache_root" "tofu-prerel-$version-" "$(dirname "$cached")"
fi
mkdir -p "$out"
cp "$cached" "$out/tofu"
echo "patched tofu: $out/tofu (cached as $cached)"
