#!/usr/bin/env bash
# build.sh OUT: builds Terraform v1.16.4 with prerel's gate at its
# version-selection call sites (terraform.patch) into OUT/terraform, and
# the release itself, unpatched, into the cache (terraform-v1.16.4), where
# the tests find it to compare with.
#
# The source is the release's module from the Go module proxy, copied out
# of the read-only module cache. Terraform's go.mod replaces ten modules
# nested in its repository (internal/legacy and the remote-state
# backends) with their directories, which the module's zip leaves out:
# a nested module is a module of its own. The proxy serves each of them
# under its own path at the release's commit, as the pseudo-version
# v0.0.0-TIME-COMMIT (the commit and its time from the release's .info),
# so each such replace is pointed at that version: the same files the
# release was built from, checked against the checksum database.
#
# For the patched build the patch is applied and go.mod gains a require
# of github.com/prerel/prerel and a replace onto this clone; the modules
# prerel would raise in Terraform's build list are held at Terraform's
# own versions, so that without prerel.hcl the patched terraform runs
# exactly the release's dependencies.
#
# Both binaries are cached under ${XDG_CACHE_HOME:-~/.cache}/prerel: the
# release by its version, the patched one by the hash of everything it
# is built from (prerel_hash in ../buildlib.sh). A second run with
# nothing changed copies the cached binary.
set -euo pipefail

out=${1:?usage: build.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=v1.16.4
module=github.com/hashicorp/terraform
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/prerel

. "$repo/upstream/buildlib.sh"
hash=$(prerel_hash "$version" upstream/terraform/build.sh upstream/terraform/terraform.patch)
cached=$cache_root/terraform-prerel-$version-$hash/terraform
release=$cache_root/terraform-$version/terraform

# json_field NAME: the first string field NAME of go's JSON on stdin.
json_field() {
  sed -n "s/^[[:space:]]*\"$1\": \"\\(.*\\)\",\\{0,1\\}\$/\\1/p" | head -1
}

if [ ! -x "$cached" ] || [ ! -x "$release" ]; then
  dl=$(go mod download -json "$module@$version")
  src=$(json_field Dir <<<"$dl")
  info=$(json_field Info <<<"$dl")
  commit=$(json_field Hash <<<"$dl")
  if [ -z "$src" ] || [ -z "$info" ] || [ -z "$commit" ]; then
    echo "build.sh: go mod download $module@$version gave no directory, .info or commit:" >&2
    echo "$dl" >&2
    exit 1
  fi
  # The commit's time, as a pseudo-version writes it: 20260923115756.
  time=$(sed -n 's/.*"Time":"\([0-9T:-]*\)Z".*/\1/p' "$info" | tr -d 'T:-')
  if [ ${#time} != 14 ]; then
    echo "build.sh: no commit time in $info" >&2
    exit 1
  fi
  pseudo=v0.0.0-$time-${commit:0:12}

  work=$(mktemp -d)
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  cp -R "$src" "$work/terraform"
  chmod -R u+w "$work/terraform"
  cd "$work/terraform"
  nested=$(awk '$1 == "replace" && $3 == "=>" && $4 ~ /^\.\// { print $2 " " $4 }' go.mod)
  while read -r path dir; do
    [ -n "$path" ] || continue
    [ ! -e "$dir/go.mod" ] || continue
    go mod edit -dropreplace="$path" -replace="$path=$path@$pseudo"
    echo "build.sh: $path from the module proxy at $pseudo (the zip of $module leaves out $dir)"
  done <<<"$nested"

  # As Terraform's BUILDING.md builds a release: without -dev in the
  # version it reports and checks required_version against.
  ldflags="-s -w -X github.com/hashicorp/terraform/version.dev=no"
  if [ ! -x "$release" ]; then
    mkdir -p "$(dirname "$release")"
    GOFLAGS=-mod=mod go build -ldflags="$ldflags" -o "$release.tmp" .
    mv "$release.tmp" "$release"
    echo "release terraform: $release"
  fi
  if [ ! -x "$cached" ]; then
    # One module is let rise, because prerel's adapter of it needs the
    # newer API: Masterminds/semver (v3.3.0 → v3.5.0).
    prerel_join "$work" . Terraform " github.com/Masterminds/semver/v3 "
    patch -p1 --quiet --no-backup-if-mismatch <"$here/terraform.patch"
    mkdir -p "$(dirname "$cached")"
    GOFLAGS=-mod=mod go build -ldflags="$ldflags" -o "$cached.tmp" .
    mv "$cached.tmp" "$cached"
    prerel_keep_one "$cache_root" "terraform-prerel-$version-" "$(dirname "$cached")"
  fi
fi
mkdir -p "$out"
cp "$cached" "$out/terraform"
echo "patched terraform: $out/terraform (cached as $cached)"
