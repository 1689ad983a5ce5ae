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
# hash of everything it is built from: the release, this script, the
# patch, the Go version, prerel's go.mod and go.sum and the source files
# of the packages the gate compiles in. A second run with nothing changed
# copies the cached binary.
set -euo pipefail

out=${1:?usage: build.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=v1.12.6
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/prerel

# The files of prerel the gate compiles in.
gate_files=$(cd "$repo" && go list -deps -f '{{if .Module}}{{if eq .Module.Path "github.com/prerel/prerel"}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}{{end}}' ./gate | sort)
hash=$( {
  echo "$version"
  go version
  cat "$here/build.sh" "$here/opentofu.patch" "$repo/go.mod" "$repo/go.sum"
  for f in $gate_files; do echo "$f"; cat "$f"; done
} | sha256sum | cut -c1-16)
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
  # OpenTofu's build list before prerel joins it, and the modules the
  # release links into tofu.
  GOFLAGS=-mod=mod go list -m -f '{{.Path}} {{.Version}}' all >"$work/before"
  GOFLAGS=-mod=mod go list -deps -f '{{with .Module}}{{.Path}}{{end}}' ./cmd/tofu | sort -u >"$work/linked"
  patch -p1 --quiet --no-backup-if-mismatch <"$here/opentofu.patch"

  go mod edit -require=github.com/prerel/prerel@v0.0.0 -replace="github.com/prerel/prerel=$repo"
  GOFLAGS=-mod=mod go list -m -f '{{.Path}} {{.Version}}' all >"$work/after"
  # Hold every module tofu links that prerel raises at OpenTofu's
  # version, through OpenTofu's own replace of that version when it has
  # one (hcl/v2 is its fork). One is let rise, because prerel's adapter
  # of it needs the newer API: Masterminds/semver (v3.4.0 → v3.5.0).
  rise=" github.com/Masterminds/semver/v3 "
  while read -r path v; do
    was=$(awk -v p="$path" '$1 == p { print $2 }' "$work/before")
    [ -n "$was" ] && [ "$was" != "$v" ] || continue
    grep -qxF "$path" "$work/linked" || continue
    if [[ $rise == *" $path "* ]]; then
      echo "build.sh: $path rises from OpenTofu's $was to prerel's $v"
      continue
    fi
    target=$(awk -v p="$path" -v v="$was" '{ sub(/^replace[ \t]+/, "") }
      $1 == p && $2 == v && $3 == "=>" { print $4 "@" $5; exit }' go.mod)
    if [ -n "$target" ]; then
      go mod edit -dropreplace="$path@$was" -replace="$path=$target"
    else
      go mod edit -replace="$path=$path@$was"
    fi
    echo "build.sh: holding $path at OpenTofu's $was${target:+ ($target)} (prerel requires $v)"
  done <"$work/after"
  mkdir -p "$(dirname "$cached")"
  GOFLAGS=-mod=mod go build -o "$cached.tmp" ./cmd/tofu
  mv "$cached.tmp" "$cached"
  # One build is kept: the cache does not grow with every change of the
  # gate's sources.
  for old in "$cache_root"/tofu-prerel-"$version"-*; do
    [ "$old" = "$(dirname "$cached")" ] || rm -rf "$old"
  done
fi
mkdir -p "$out"
cp "$cached" "$out/tofu"
echo "patched tofu: $out/tofu (cached as $cached)"
