# buildlib.sh: what upstream/opentofu/build.sh and
# upstream/terraform/build.sh share, sourced by both with $repo set to
# the root of this clone: the hash a patched build is cached by, and
# prerel's entry into an installer's module.

# prerel_gate_files: the files of prerel that package gate compiles in,
# relative to $repo, one a line.
prerel_gate_files() {
  (cd "$repo" && go list -deps -f '{{if .Module}}{{if eq .Module.Path "github.com/prerel/prerel"}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}{{end}}' ./gate | sed "s|^$repo/||" | sort)
}

# prerel_hash VERSION FILE...: 16 hex digits of the hash of everything a
# patched build is built from: the release, the Go version, the files
# named (relative to $repo: the script, the patch), prerel's go.mod and
# go.sum and the source files of the packages the gate compiles in. The
# paths are relative, so that another clone of the same commit hits the
# same cache entry.
prerel_hash() {
  local version=$1 f
  shift
  {
    echo "$version"
    go version
    for f in "$@" upstream/buildlib.sh go.mod go.sum $(prerel_gate_files); do
      echo "$f"
      cat "$repo/$f"
    done
  } | sha256sum | cut -c1-16
}

# prerel_join WORK MAIN PRODUCT RISE: in the installer's module (the
# working directory), before the patch: adds to go.mod a require of
# github.com/prerel/prerel and a replace onto $repo, then holds every
# module the program MAIN links that prerel raises at the installer's own
# version, through the installer's own replace of that version when it
# has one. RISE lists the modules let rise (" path path "), because
# prerel needs their newer API. PRODUCT names the installer in messages;
# WORK is a scratch directory.
prerel_join() {
  local work=$1 main=$2 product=$3 rise=$4 path v was target
  # The installer's build list before prerel joins it, and the modules
  # the release links into MAIN.
  GOFLAGS=-mod=mod go list -m -f '{{.Path}} {{.Version}}' all >"$work/before"
  GOFLAGS=-mod=mod go list -deps -f '{{with .Module}}{{.Path}}{{end}}' "$main" | sort -u >"$work/linked"
  go mod edit -require=github.com/prerel/prerel@v0.0.0 -replace="github.com/prerel/prerel=$repo"
  GOFLAGS=-mod=mod go list -m -f '{{.Path}} {{.Version}}' all >"$work/after"
  while read -r path v; do
    was=$(awk -v p="$path" '$1 == p { print $2 }' "$work/before")
    [ -n "$was" ] && [ "$was" != "$v" ] || continue
    grep -qxF "$path" "$work/linked" || continue
    if [[ $rise == *" $path "* ]]; then
      echo "build.sh: $path rises from $product's $was to prerel's $v"
      continue
    fi
    target=$(awk -v p="$path" -v v="$was" '{ sub(/^replace[ \t]+/, "") }
      $1 == p && $2 == v && $3 == "=>" { print $4 "@" $5; exit }' go.mod)
    if [ -n "$target" ]; then
      go mod edit -dropreplace="$path@$was" -replace="$path=$target"
    else
      go mod edit -replace="$path=$path@$was"
    fi
    echo "build.sh: holding $path at $product's $was${target:+ ($target)} (prerel requires $v)"
  done <"$work/after"
}

# prerel_keep_one CACHE_ROOT PREFIX KEEP: removes every directory
# CACHE_ROOT/PREFIX* but KEEP, so that the cache does not grow with every
# change of the gate's sources.
prerel_keep_one() {
  local old
  for old in "$1/$2"*; do
    [ "$old" = "$3" ] || rm -rf "$old"
  done
}
