// Package e2e is the end-to-end proof of a patched installer, shared by
// upstream/opentofu and upstream/terraform: on the local registry and
// root module of terraform/registry/registrytest, what `prerel resolve` says the
// chosen policies select, and the suites that compare it with what init
// installed (ChosenPolicies, WithoutConfig, Differential). Each suite takes the Installer under
// test; the tests run in the long run only and skip when the patched
// binary is not named.
package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/registry/registrytest"
)

// Installer is a patched installer under test and the release it was
// patched from.
type Installer struct {
	// Env names the environment variable that names the patched binary
	// (PREREL_PATCHED_TOFU).
	Env string
	// Build is the script that builds it (upstream/opentofu/build.sh).
	Build string
	// Release is the release patched, as --installer names it.
	Release installer.Release
	// ReleaseBinary finds the unpatched release's binary; "" when there
	// is none, and the comparisons with it are skipped.
	ReleaseBinary func() string
	// TodayModule is the name of today's module rule of the release
	// ("opentofu-module").
	TodayModule string
}

// Patched is the patched binary named by inst.Env; it skips t outside
// the long run or when the variable is not set.
func (inst Installer) Patched(t *testing.T) string {
	t.Helper()
	longtest.Skip(t)
	bin := os.Getenv(inst.Env)
	if bin == "" {
		t.Skipf("%s is not set: build the patched %s with %s OUT and set it to OUT/%s", inst.Env, inst.Release.Product, inst.Build, inst.Release.Product)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s: %v", inst.Env, err)
	}
	return bin
}

// CachedBinary returns ${XDG_CACHE_HOME:-~/.cache}/prerel/DIR/NAME when
// it is a file, "" otherwise.
func CachedBinary(dir, name string) string {
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	if p := filepath.Join(cache, "prerel", dir, name); isFile(p) {
		return p
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// Resolved returns what the chosen policies select, as `prerel resolve
// --installer REL` reports it: call path or provider address → version,
// "none" for none.
func Resolved(t *testing.T, e *registrytest.Env, data string, rel installer.Release) map[string]string {
	t.Helper()
	pols := catalogue.New()
	cfg, diags := policyconfig.LoadDir(pols, e.Root)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	opts := resolve.Options{Dir: e.Root, ModulesDir: filepath.Join(data, "modules"),
		Config: cfg, Versions: e.Reg, Policies: pols, LockFile: "-"}
	if rel.Product == installer.OpenTofu {
		opts.OpenTofu = rel
	} else {
		opts.Terraform = rel
	}
	rep, err := resolve.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range rep.Items {
		key := it.Name
		if it.Kind == resolve.KindProvider {
			key = it.Address
		}
		out[key] = "none"
		if it.Selected != nil {
			out[key] = *it.Selected
		}
	}
	return out
}

// MapString writes m as "k=v k=v", sorted by key.
func MapString(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s ", k, m[k])
	}
	return strings.TrimSpace(b.String())
}

var errorLine = regexp.MustCompile(`(?m)^(Error: .*|.*no available version of module "[^"]+".*)$`)

// ErrorLines are the error summaries of an init's output, and the
// modules no version was found for, sorted, without paths.
func ErrorLines(out string) []string {
	lines := errorLine.FindAllString(out, -1)
	sort.Strings(lines)
	return slices.Compact(lines)
}
