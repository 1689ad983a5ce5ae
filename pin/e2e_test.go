package pin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	goversions "github.com/apparentlymart/go-versions/versions"

	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/registry/registrytest"
)

// e2eProvider is the provider the end-to-end test installs from the
// test registry.
const e2eProvider = registrytest.Provider

// netSource is the source of the module the end-to-end tests call,
// corp/net/aws of the test registry.
var netSource = registrytest.ModuleSource("net")

// installers finds terraform and tofu on PATH: the end-to-end tests run
// with each one found. With none, the test says so and skips; .ci/run
// builds tofu when it finds none.
func installers(t *testing.T) []string {
	longtest.Skip(t)
	var found []string
	for _, name := range []string{"terraform", "tofu"} {
		if p, err := exec.LookPath(name); err == nil {
			found = append(found, p)
		}
	}
	if len(found) == 0 {
		t.Skip("neither terraform nor tofu is on PATH: the end-to-end test needs one")
	}
	return found
}

// e2e is a root module in a temporary directory, with the CLI
// configuration and data directory of its own.
type e2e struct {
	t          *testing.T
	bin        string
	env        *registrytest.Env
	reg        *registrytest.Registry
	root, data string
	cfg        *policyconfig.Config
}

// newE2E starts the registry (corp/net/aws at 1.0.0, 1.1.0 and
// 2.0.0-beta.1, and the provider versions given), writes the CLI
// configuration (a host block for the registry) and chooses the
// "linear" policy for everything.
func newE2E(t *testing.T, bin string, providers ...string) *e2e {
	env := registrytest.NewEnv(t)
	env.Reg.Module("net", "1.0.0", "1.1.0", "2.0.0-beta.1")
	env.Reg.Providers(providers...)
	e := &e2e{t: t, bin: bin, env: env, reg: env.Reg, root: env.Root, data: filepath.Join(env.Tmp, "data")}
	cfg, err := policyconfig.New(policies)
	if err != nil {
		t.Fatal(err)
	}
	if diags := cfg.SetDefault("linear", policyconfig.FlagOrigin("--policy linear")); diags.HasErrors() {
		t.Fatal(diags)
	}
	e.cfg = cfg
	return e
}

func (e *e2e) write(path, content string) { e.t.Helper(); e.env.Write(path, content) }

// tryInit runs init in the root module, with no network beyond the
// local registry.
func (e *e2e) tryInit(args ...string) (string, error) { return e.env.Init(e.bin, e.data, args...) }

func (e *e2e) init(args ...string) string {
	e.t.Helper()
	return e.env.MustInit(e.bin, e.data, args...)
}

// installed returns the registry module versions of the module manifest.
func (e *e2e) installed() map[string]string {
	e.t.Helper()
	out := registrytest.Installed(e.t, e.data)
	if out == nil {
		e.t.Fatal("init wrote no module manifest")
	}
	e.t.Logf("installed: %v", out)
	return out
}

// locked returns the version the lock file holds for e2eProvider.
func (e *e2e) locked() string { e.t.Helper(); return e.env.Locked() }

// plan resolves the root module, the files pin wrote left out, and
// plans the pins.
func (e *e2e) plan() *pin.Plan {
	e.t.Helper()
	rep, err := runResolve(context.Background(), resolve.Options{Dir: e.root, ModulesDir: filepath.Join(e.data, "modules"),
		Config: e.cfg, Versions: e.reg, Policies: policies, SkipFile: pin.Skip})
	if err != nil {
		e.t.Fatal(err)
	}
	tree, diags := config.LoadTree(e.root, config.TreeOptions{ModulesDir: filepath.Join(e.data, "modules"), SkipFile: pin.Skip})
	if diags.HasErrors() {
		e.t.Fatal(diags)
	}
	p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
	if err != nil {
		e.t.Fatal(err)
	}
	var b bytes.Buffer
	pin.Render(&b, pin.Text, p, pin.RenderOptions{})
	e.t.Logf("plan:\n%s", b.String())
	return p
}

// TestEndToEnd pins a registry module called from a local child module,
// runs the real init against a local registry and finds the pinned
// version installed; a newer prerelease makes Check report a difference;
// Remove and init again install today's selection.
func TestEndToEnd(t *testing.T) {
	for _, bin := range installers(t) {
		t.Run(filepath.Base(bin), func(t *testing.T) { endToEnd(t, bin) })
	}
}

func endToEnd(t *testing.T, bin string) {
	e := newE2E(t, bin)
	e.write(filepath.Join(e.root, "main.tf"), "module \"app\" {\n  source = \"./app\"\n}\n")
	e.write(filepath.Join(e.root, "app", "main.tf"), fmt.Sprintf("module \"net\" {\n  source  = %q\n  version = \"~> 1.0\"\n}\n", netSource))

	// Today's selection, without pins.
	e.init()
	if got := e.installed(); got["app.net"] != "1.1.0" {
		t.Fatalf("without pins init installed %v, want app.net 1.1.0", got)
	}

	p := e.plan()
	want := map[string]string{}
	for _, x := range p.Pins {
		want[x.Name] = x.Version
	}
	if len(want) != 1 || want["app.net"] != "2.0.0-beta.1" {
		t.Fatalf("pins %v, want app.net at 2.0.0-beta.1", want)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.init()
	if got := e.installed(); !equalMaps(got, want) {
		t.Errorf("with the pins init installed %v, want exactly what the plan reported, %v", got, want)
	}

	// A newer prerelease: the files on disk are out of date.
	e.reg.Publish("net", "2.0.0-beta.2")
	p2 := e.plan()
	diffs, err := pin.Check(p2)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 1 || diffs[0].Kind != "changed" || !strings.Contains(diffs[0].Diff, `+  version = "2.0.0-beta.2"`) {
		t.Errorf("Check after publishing 2.0.0-beta.2: %+v", diffs)
	}

	// Without the pins, init installs today's selection again.
	if removed, err := pin.Remove(p2, pin.WriteOptions{}); err != nil || len(removed.Removed) != 1 {
		t.Fatalf("Remove: %q, %v", removed, err)
	}
	e.init()
	if got := e.installed(); got["app.net"] != "1.1.0" {
		t.Errorf("after Remove init installed %v, want app.net 1.1.0", got)
	}
}

// TestEndToEndProvider pins a provider a child module requires too, in
// the root module: init refuses the pin while the lock file holds
// today's version, installs and locks the pinned prerelease once
// WriteOptions.Unlock removed that entry, and needs -upgrade to go back
// once the pin is removed. The root module requires the provider itself,
// or only its child does and the pin adds the root's entry. The provider
// comes from the test registry over providers.v1, as a signed package.
func TestEndToEndProvider(t *testing.T) {
	requirement := func(constraint string) string {
		return fmt.Sprintf("terraform {\n  required_providers {\n    thing = {\n      source  = %q\n      version = %q\n    }\n  }\n}\n\n", e2eProvider, constraint)
	}
	const call = "module \"app\" {\n  source = \"./app\"\n}\n"
	for _, bin := range installers(t) {
		for _, tt := range []struct{ name, root, child string }{
			{"root and child", requirement("~> 1.0") + call, requirement(">= 1.0")},
			{"child only", call, requirement("~> 1.0")},
		} {
			t.Run(filepath.Base(bin)+", "+tt.name, func(t *testing.T) {
				e := newE2E(t, bin, "1.0.0", "1.1.0", "2.0.0-beta1")
				e.write(filepath.Join(e.root, "main.tf"), tt.root)
				e.write(filepath.Join(e.root, "app", "main.tf"), tt.child)
				providerPin(t, e)
			})
		}
	}
}

func providerPin(t *testing.T, e *e2e) {
	e.init()
	if v := e.locked(); v != "1.1.0" {
		t.Fatalf("without pins init locked %q, want 1.1.0", v)
	}
	p := e.plan()
	if len(p.Pins) != 1 || p.Pins[0].Version != "2.0.0-beta1" || len(p.Lock) != 1 || p.Lock[0].Locked != "1.1.0" {
		t.Fatalf("pins %+v, lock changes %+v; want thing at 2.0.0-beta1, locked at 1.1.0", p.Pins, p.Lock)
	}
	if err := pin.Write(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if out, err := e.tryInit(); err == nil || !strings.Contains(out, "does not match configured version") {
		t.Fatalf("init with the pin and the old lock entry: %v\n%s\nwant the lock entry refused", err, out)
	}
	if err := pin.Write(p, pin.WriteOptions{Unlock: true}); err != nil {
		t.Fatal(err)
	}
	// init installs the package after checking its signature.
	if out := e.init(); !strings.Contains(out, "v2.0.0-beta1") || !strings.Contains(strings.ToLower(out), strings.ToLower(e.reg.KeyID())) {
		t.Errorf("init did not report installing v2.0.0-beta1 signed by key %s:\n%s", e.reg.KeyID(), out)
	}
	if v := e.locked(); v != "2.0.0-beta1" {
		t.Errorf("with the pin init locked %q, want 2.0.0-beta1", v)
	}
	if d, err := pin.Check(e.plan()); err != nil || len(d) != 0 {
		t.Errorf("Check: %+v, %v", d, err)
	}

	if _, err := pin.Remove(p, pin.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if out, err := e.tryInit(); err == nil {
		t.Errorf("init without the pin kept the locked prerelease:\n%s", out)
	}
	e.init("-upgrade")
	if v := e.locked(); v != "1.1.0" {
		t.Errorf("after Remove and init -upgrade the lock holds %q, want 1.1.0", v)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// release returns the release prerel emulates for e's installer, from
// its `version -json`; the test skips, saying why, when prerel does not
// know that release. A "-dev" version is what `go build` of a release's
// source reports (.ci/run builds OpenTofu so): it is read as that
// release.
func (e *e2e) release() installer.Release {
	t, bin := e.t, e.bin
	t.Helper()
	cmd := e.env.Command(context.Background(), bin, e.data, "version", "-json")
	cmd.Dir = e.env.Tmp
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s version -json: %v", bin, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s version -json: %v\n%s", bin, err, out)
	}
	product := installer.Terraform
	if filepath.Base(bin) == "tofu" {
		product = installer.OpenTofu
	}
	version, dev := strings.CutSuffix(v.Version, "-dev")
	r, err := installer.Parse(string(product) + "@" + version)
	if err != nil {
		t.Skipf("%s reports version %q, a release prerel does not emulate: %v", bin, v.Version, err)
	}
	if dev {
		t.Logf("%s reports %q, a build from source: emulating %s", bin, v.Version, r)
	} else {
		t.Logf("%s is %s", bin, r)
	}
	return r
}

// today resolves the root module, before init, as release r's init
// would, and returns the item named name of kind, with the policy
// standing for r.
func (e *e2e) today(r installer.Release, kind resolve.Kind, name string) (*resolve.Item, string) {
	e.t.Helper()
	it, policy, err := e.tryToday(r, kind, name)
	if err != nil {
		e.t.Fatal(err)
	}
	return it, policy
}

// tryToday is today, with resolve's error.
func (e *e2e) tryToday(r installer.Release, kind resolve.Kind, name string) (*resolve.Item, string, error) {
	e.t.Helper()
	opts := resolve.Options{Dir: e.root, Config: e.cfg, Versions: e.reg, Policies: policies, SkipFile: pin.Skip}
	if r.Product == installer.OpenTofu {
		opts.OpenTofu = r
	} else {
		opts.Terraform = r
	}
	rep, err := runResolve(context.Background(), opts)
	if err != nil {
		return nil, "", err
	}
	if !slices.Contains(rep.Installers, r.String()) {
		e.t.Fatalf("the report emulates %v, not %s", rep.Installers, r)
	}
	for i := range rep.Items {
		it := &rep.Items[i]
		if it.Kind == kind && it.Name == name {
			policy := it.TerraformPolicy
			if r.Product == installer.OpenTofu {
				policy = it.OpenTofuPolicy
			}
			return it, policy, nil
		}
	}
	e.t.Fatalf("the report has no %s %q: %+v", kind, name, rep.Items)
	return nil, "", nil
}

// TestEndToEndFourPartModule publishes a module version of four parts,
// 1.2.3.4, next to 1.0.0 and 1.1.0: the module installer reads it with
// hashicorp/go-version, which reads four parts. Whatever the real init
// installs, prerel resolve, emulating that binary's release, says the
// same.
func TestEndToEndFourPartModule(t *testing.T) {
	for _, bin := range installers(t) {
		for _, constraint := range []string{"~> 1.0", ">= 1.0", "~> 1.2.3", "1.2.3.4"} {
			t.Run(filepath.Base(bin)+", "+constraint, func(t *testing.T) {
				e := newE2E(t, bin)
				r := e.release()
				e.reg.Module("net", "1.0.0", "1.1.0", "1.2.3.4")
				e.write(filepath.Join(e.root, "main.tf"), fmt.Sprintf("module \"net\" {\n  source  = %q\n  version = %q\n}\n", netSource, constraint))
				it, policy, rerr := e.tryToday(r, resolve.KindModule, "net")
				out, err := e.tryInit()
				t.Logf("%s init: %v\n%s", bin, err, out)
				if rerr != nil {
					if err == nil {
						t.Errorf("init installed %v where resolve (%s) refuses the configuration: %v", e.installed(), r, rerr)
					}
					return
				}
				want := it.ByPolicy[policy]
				if want == nil {
					if err == nil {
						t.Errorf("init installed %v where resolve (%s) says %s selects no version", e.installed(), r, policy)
					}
					return
				}
				if err != nil {
					t.Fatalf("init failed where resolve (%s) says %s selects %s", r, policy, *want)
				}
				if got := e.installed()["net"]; got != *want {
					t.Errorf("init installed net %q; resolve (%s) says %s selects %q", got, r, policy, *want)
				}
			})
		}
	}
}

// TestEndToEndUnparsableProviderVersion serves a provider registry
// answer that lists a version go-versions cannot read next to 1.0.0 and
// 1.1.0. Terraform 1.12 and earlier and OpenTofu fail the whole query,
// Terraform 1.13 and later skip the version: init fails exactly when
// resolve, emulating that binary's release, reports a TodayErrors entry
// for the release, and otherwise locks what resolve says it selects.
// "1.1", which go-versions reads as 1.1.0, fails no release's query:
// resolve names the version as listed, the lock file as go-versions
// writes it, and the two are the same version.
func TestEndToEndUnparsableProviderVersion(t *testing.T) {
	for _, bin := range installers(t) {
		for _, bad := range []string{"1.2.3.4", "v1.0.0", "1.1"} {
			t.Run(filepath.Base(bin)+", "+bad, func(t *testing.T) {
				e := newE2E(t, bin, "1.0.0", bad, "1.1.0")
				r := e.release()
				e.write(filepath.Join(e.root, "main.tf"), fmt.Sprintf("terraform {\n  required_providers {\n    thing = {\n      source  = %q\n      version = \"~> 1.0\"\n    }\n  }\n}\n", e2eProvider))
				it, policy := e.today(r, resolve.KindProvider, "thing")
				var todayErr string
				for _, x := range it.TodayErrors {
					if x.Installer == r.String() {
						todayErr = x.Error
					}
				}
				out, err := e.tryInit()
				t.Logf("%s init: %v\n%s", bin, err, out)
				t.Logf("resolve (%s): today_errors %+v, %s selects %v", r, it.TodayErrors, policy, orNil(it.ByPolicy[policy]))
				switch {
				case todayErr != "" && err == nil:
					t.Fatalf("init succeeded (locked %q) where resolve says %s fails: %s", e.locked(), r, todayErr)
				case todayErr == "" && err != nil:
					t.Fatalf("init failed where resolve reports no error for %s", r)
				case todayErr != "":
					if q := fmt.Sprintf("%q", bad); !strings.Contains(todayErr, q) || !strings.Contains(out, q) {
						t.Errorf("init's error and resolve's (%s) do not both name %s", todayErr, q)
					}
				default:
					want := it.ByPolicy[policy]
					if want == nil {
						t.Fatalf("init locked %q where resolve (%s) says %s selects no version", e.locked(), r, policy)
					}
					if got := e.locked(); !sameProviderVersion(got, *want) {
						t.Errorf("init locked %q; resolve (%s) says %s selects %q", got, r, policy, *want)
					}
				}
			})
		}
	}
}

// sameProviderVersion reports whether go-versions, the provider
// installer's reader, reads a and b as the same version.
func sameProviderVersion(a, b string) bool {
	va, erra := goversions.ParseVersion(a)
	vb, errb := goversions.ParseVersion(b)
	return erra == nil && errb == nil && va.Same(vb)
}

func orNil(s *string) string {
	if s == nil {
		return "none"
	}
	return *s
}

// TestEndToEndWant asks for a version: db's constraint "~> 2.0" admits no
// listed version under cargo, nor under today's init, which fails; with
// 2.0.0-beta.1 wanted for db, pin pins it and the real init installs it.
func TestEndToEndWant(t *testing.T) {
	for _, bin := range installers(t) {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			e := newE2E(t, bin)
			e.write(filepath.Join(e.root, "main.tf"), fmt.Sprintf("module \"db\" {\n  source  = %q\n  version = \"~> 2.0\"\n}\n", netSource))
			if diags := e.cfg.SetModule("db", "cargo", policyconfig.FlagOrigin("--module-policy db=cargo")); diags.HasErrors() {
				t.Fatal(diags)
			}
			if out, err := e.tryInit(); err == nil {
				t.Fatalf("init without a pin installed something for ~> 2.0:\n%s", out)
			}
			if diags := e.cfg.SetModuleWant("db", "2.0.0-beta.1", policyconfig.FlagOrigin("--want db=2.0.0-beta.1")); diags.HasErrors() {
				t.Fatal(diags)
			}
			p := e.plan()
			if len(p.Pins) != 1 || p.Pins[0].Version != "2.0.0-beta.1" || p.Pins[0].WantedFrom != "--want db=2.0.0-beta.1" {
				t.Fatalf("pins %+v, unpinned %+v; want db at 2.0.0-beta.1, wanted", p.Pins, p.Unpinned)
			}
			if err := pin.Write(p, pin.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			e.init()
			if got := e.installed(); got["db"] != "2.0.0-beta.1" {
				t.Errorf("with the pin init installed %v, want db 2.0.0-beta.1", got)
			}
		})
	}
}

// TestEndToEndWalk walks one tree the way a user does, with the real
// installer: resolve, pin, init installs the pin; a newer prerelease is
// published: resolve marks the pin stale and Check fails; Remove names
// the prerelease init keeps, and a plain init keeps it, as the call's
// constraint still admits it; init -upgrade goes back to today's
// selection, which is none for this constraint.
func TestEndToEndWalk(t *testing.T) {
	for _, bin := range installers(t) {
		t.Run(filepath.Base(bin), func(t *testing.T) {
			e := newE2E(t, bin)
			e.write(filepath.Join(e.root, "main.tf"), fmt.Sprintf("module \"db\" {\n  source  = %q\n  version = \">= 2.0.0-beta.1\"\n}\n", netSource))
			if diags := e.cfg.SetDefault("cargo", policyconfig.FlagOrigin("--policy cargo")); diags.HasErrors() {
				t.Fatal(diags)
			}
			if _, err := e.tryInit(); err == nil {
				t.Fatal("init without a pin installed a prerelease for >= 2.0.0-beta.1")
			}
			rep := e.resolve()
			if it := rep.Items[0]; it.Selected == nil || *it.Selected != "2.0.0-beta.1" || it.Pinned != nil {
				t.Fatalf("resolve before pin: selected %v, pinned %+v", it.Selected, it.Pinned)
			}
			if err := pin.Write(e.plan(), pin.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			e.init()
			if got := e.installed(); got["db"] != "2.0.0-beta.1" {
				t.Fatalf("with the pin init installed %v", got)
			}

			e.reg.Publish("net", "2.0.0-beta.2")
			rep = e.resolve()
			if p := rep.Items[0].Pinned; p == nil || p.Version != "2.0.0-beta.1" || !p.Stale || p.File != pin.FileName {
				t.Errorf("resolve after 2.0.0-beta.2: pinned %+v, want 2.0.0-beta.1 in %s, stale", p, pin.FileName)
			}
			p := e.plan()
			if diffs, err := pin.Check(p); err != nil || len(diffs) != 1 {
				t.Errorf("Check after 2.0.0-beta.2: %+v, %v", diffs, err)
			}

			removal, err := pin.Remove(p, pin.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tree, diags := config.LoadTree(e.root, config.TreeOptions{ModulesDir: filepath.Join(e.data, "modules"), SkipFile: pin.Skip})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			check, _ := policies.Lookup(pin.KeepPolicy)
			kept := pin.Kept(tree, nil, removal, check)
			if len(kept) != 1 || !strings.Contains(kept[0], "module.db: 2.0.0-beta.1 stays installed") {
				t.Errorf("Kept: %q, want db's 2.0.0-beta.1", kept)
			}
			e.init()
			if got := e.installed(); got["db"] != "2.0.0-beta.1" {
				t.Errorf("a plain init after Remove installed %v, want db kept at 2.0.0-beta.1, as Kept says", got)
			}
			if out, err := e.tryInit("-upgrade"); err == nil {
				t.Errorf("init -upgrade after Remove installed something for >= 2.0.0-beta.1:\n%s", out)
			}
		})
	}
}

// resolve resolves the root module as the CLI's resolve does: pin's files
// read apart.
func (e *e2e) resolve() *resolve.Report {
	e.t.Helper()
	rep, err := runResolve(context.Background(), resolve.Options{Dir: e.root, ModulesDir: filepath.Join(e.data, "modules"),
		Config: e.cfg, Versions: e.reg, Policies: policies, SkipFile: pin.Skip})
	if err != nil {
		e.t.Fatal(err)
	}
	return rep
}
