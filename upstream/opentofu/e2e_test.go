package opentofu_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/registry"
)

// host is the registry host of the tests: a host block of the CLI
// configuration points it at the local server.
const host = "registry.prerel.test"

// provider is the provider the tests install.
const provider = host + "/corp/thing"

// patchedTofu is the patched binary .ci/run builds (build.sh), named by
// PREREL_PATCHED_TOFU; the test skips without it.
func patchedTofu(t *testing.T) string {
	t.Helper()
	longtest.Skip(t)
	bin := os.Getenv("PREREL_PATCHED_TOFU")
	if bin == "" {
		t.Skip("PREREL_PATCHED_TOFU is not set: build the patched tofu with upstream/opentofu/build.sh OUT and set it to OUT/tofu")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("PREREL_PATCHED_TOFU: %v", err)
	}
	return bin
}

// releaseTofu is the release .ci/run builds, from its cache, or tofu on
// PATH; "" when there is neither.
func releaseTofu() string {
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	if p := filepath.Join(cache, "prerel", "tofu-v1.12.6", "tofu"); isFile(p) {
		return p
	}
	if p, err := exec.LookPath("tofu"); err == nil {
		return p
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// reg is a registry over HTTPS on 127.0.0.1: modules corp/NAME/aws with
// their versions and contents, and the provider corp/thing.
type reg struct {
	srv       *httptest.Server
	mu        sync.Mutex
	modules   map[string][]string            // NAME → versions
	contents  map[string]func(string) string // NAME → main.tf of a version
	providers []string
}

func newReg(t *testing.T) *reg {
	r := &reg{modules: map[string][]string{}, contents: map[string]func(string) string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/v1/modules/", "providers.v1": "/v1/providers/"}`)
	})
	packages := newProviderPackages(t)
	packages.handle(mux, func() []string { r.mu.Lock(); defer r.mu.Unlock(); return slices.Clone(r.providers) }, func() string { return r.srv.URL })
	mux.HandleFunc("GET /v1/modules/corp/{name}/aws/versions", func(w http.ResponseWriter, req *http.Request) {
		vs, ok := r.versions(req.PathValue("name"))
		if !ok {
			http.NotFound(w, req)
			return
		}
		var list []map[string]string
		for _, v := range vs {
			list = append(list, map[string]string{"version": v})
		}
		json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": list}}})
	})
	mux.HandleFunc("GET /v1/modules/corp/{name}/aws/{version}/download", func(w http.ResponseWriter, req *http.Request) {
		name, v := req.PathValue("name"), req.PathValue("version")
		if vs, _ := r.versions(name); !slices.Contains(vs, v) {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("X-Terraform-Get", r.srv.URL+"/archives/"+name+"/"+v+".tar.gz")
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /archives/{name}/{file}", func(w http.ResponseWriter, req *http.Request) {
		name, v := req.PathValue("name"), strings.TrimSuffix(req.PathValue("file"), ".tar.gz")
		r.mu.Lock()
		content := r.contents[name]
		r.mu.Unlock()
		main := fmt.Sprintf("output \"version\" {\n  value = %q\n}\n", v)
		if content != nil {
			main = content(v)
		}
		w.Write(archive(t, main))
	})
	r.srv = httptest.NewTLSServer(mux)
	t.Cleanup(r.srv.Close)
	return r
}

func (r *reg) versions(name string) ([]string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	vs, ok := r.modules[name]
	return slices.Clone(vs), ok
}

func (r *reg) module(name string, versions ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.modules[name] = versions
}

func (r *reg) publish(name, v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.modules[name] = append(r.modules[name], v)
}

// ModuleVersions and ProviderVersions make reg the registry.Source of
// resolve.Run.
func (r *reg) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	name := strings.TrimSuffix(strings.TrimPrefix(pkg.String(), host+"/corp/"), "/aws")
	vs, ok := r.versions(name)
	if !ok {
		return nil, fmt.Errorf("%s: %w", pkg, registry.ErrNotFound)
	}
	return &registry.Listing{Versions: vs, From: r.srv.URL}, nil
}

func (r *reg) ProviderVersions(_ context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	r.mu.Lock()
	vs := slices.Clone(r.providers)
	r.mu.Unlock()
	if p.String() != provider || len(vs) == 0 {
		return nil, fmt.Errorf("%s: %w", p, registry.ErrNotFound)
	}
	return &registry.Listing{Versions: vs, From: r.srv.URL}, nil
}

func (r *reg) String() string { return "the test registry" }

func archive(t *testing.T, mainTF string) []byte {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: "main.tf", Mode: 0o644, Size: int64(len(mainTF)), ModTime: time.Unix(0, 0)}); err != nil {
		t.Error(err)
	}
	tw.Write([]byte(mainTF))
	tw.Close()
	gz.Close()
	return b.Bytes()
}

// env is a root module in a temporary directory with its own CLI
// configuration, and a data directory per binary.
type env struct {
	t         *testing.T
	reg       *reg
	tmp, root string
	cli, ca   string
}

func newEnv(t *testing.T) *env {
	e := &env{t: t, reg: newReg(t), tmp: t.TempDir()}
	e.root = filepath.Join(e.tmp, "root")
	e.ca = filepath.Join(e.tmp, "ca.pem")
	e.write(e.ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: e.reg.srv.Certificate().Raw})))
	e.cli = filepath.Join(e.tmp, "cli.tfrc")
	e.write(e.cli, fmt.Sprintf("host %q {\n  services = {\n    \"modules.v1\"   = %q\n    \"providers.v1\" = %q\n  }\n}\n",
		host, e.reg.srv.URL+"/v1/modules/", e.reg.srv.URL+"/v1/providers/"))
	return e
}

func (e *env) write(path, content string) {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// run runs bin with args in the root module, with data directory data,
// no network beyond the local registry, and a generous deadline.
func (e *env) run(bin, data string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.root
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + e.tmp,
		"TF_CLI_CONFIG_FILE=" + e.cli, "SSL_CERT_FILE=" + e.ca, "TF_DATA_DIR=" + data,
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "NO_PROXY=*",
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (e *env) init(bin, data string, args ...string) (string, error) {
	return e.run(bin, data, append([]string{"init", "-backend=false", "-input=false", "-no-color"}, args...)...)
}

// installed returns the registry module versions of the module manifest
// in data, by call path; nil when there is none.
func installed(t *testing.T, data string) map[string]string {
	t.Helper()
	path := filepath.Join(data, "modules", config.ManifestFileName)
	if !isFile(path) {
		return nil
	}
	m, diags := config.LoadManifest(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := map[string]string{}
	for k, r := range m {
		if r.Version != "" {
			out[k] = r.Version
		}
	}
	return out
}

// locked returns the version the lock file holds for provider.
func (e *env) locked() string {
	e.t.Helper()
	path := filepath.Join(e.root, config.LockFileName)
	if !isFile(path) {
		return ""
	}
	locks, diags := config.LoadLockFile(path)
	if diags.HasErrors() {
		e.t.Fatal(diags)
	}
	for _, l := range locks {
		if l.Address == provider {
			return l.Version
		}
	}
	return ""
}

// resolved returns what the chosen policies select, as `prerel resolve
// --installer tofu@1.12.6` reports it: call path or provider address →
// version, "none" for none.
func (e *env) resolved(data string) map[string]string {
	e.t.Helper()
	pols := catalogue.New()
	cfg, diags := policyconfig.LoadDir(pols, e.root)
	if diags.HasErrors() {
		e.t.Fatal(diags)
	}
	rep, err := resolve.Run(context.Background(), resolve.Options{Dir: e.root, ModulesDir: filepath.Join(data, "modules"),
		Config: cfg, Versions: e.reg, Policies: pols, LockFile: "-", OpenTofu: installer.MustParse("tofu@1.12.6")})
	if err != nil {
		e.t.Fatal(err)
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

func mustInit(t *testing.T, e *env, bin, data string, args ...string) {
	t.Helper()
	if out, err := e.init(bin, data, args...); err != nil {
		t.Fatalf("%s init: %v\n%s", bin, err, out)
	}
}

func mapString(m map[string]string) string {
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

// tree writes the root module of the end-to-end test: a local module
// whose own call names a registry module, two registry modules called
// from the root, one of which calls another registry module (a child
// module's call), and a provider required by the root and the local
// module.
func tree(e *env) {
	e.reg.module("net", "1.0.0", "1.1.0", "2.0.0-beta.1", "2.0.0-beta.2")
	e.reg.module("db", "1.0.0", "1.1.0", "1.2.0-rc.1")
	e.reg.module("inner", "0.9.0", "1.0.0-beta.1", "1.0.0-beta.2")
	e.reg.module("app", "3.0.0", "3.1.0-beta.1")
	e.reg.contents["app"] = func(v string) string {
		return fmt.Sprintf("module \"inner\" {\n  source  = %q\n  version = \">= 1.0.0-beta.1\"\n}\n\noutput \"version\" {\n  value = %q\n}\n", host+"/corp/inner/aws", v)
	}
	e.reg.providers = []string{"1.0.0", "1.1.0", "2.0.0-beta1"}
	req := func(c string) string {
		return fmt.Sprintf("terraform {\n  required_providers {\n    thing = {\n      source  = %q\n      version = %q\n    }\n  }\n}\n\n", provider, c)
	}
	e.write(filepath.Join(e.root, "main.tf"), req(">= 1.1.0")+fmt.Sprintf(
		"module \"local\" {\n  source = \"./local\"\n}\n\nmodule \"db\" {\n  source  = %q\n  version = \"~> 1.1\"\n}\n\nmodule \"app\" {\n  source  = %q\n  version = \">= 3.0.0\"\n}\n",
		host+"/corp/db/aws", host+"/corp/app/aws"))
	e.write(filepath.Join(e.root, "local", "main.tf"), req(">= 1.0.0")+fmt.Sprintf(
		"module \"net\" {\n  source  = %q\n  version = \"~> 2.0.0-beta.1\"\n}\n", host+"/corp/net/aws"))
}

const choice = `default_policy = "opentofu-module"

module "local.net" {
  policy = "cargo"
}

module "db" {
  policy = "linear"
}

module "app.inner" {
  policy = "cargo"
}

provider "registry.prerel.test/corp/thing" {
  policy = "linear"
}
`

// TestChosenPolicies: with prerel.hcl and no override file, the patched
// init installs exactly what resolve says the chosen policies select,
// for a local module's call, registry modules, a registry module's own
// call and a provider two modules require; plan finds the installed
// modules and the locked provider acceptable; a later init keeps them,
// even once the registry lists a version the policy would prefer.
func TestChosenPolicies(t *testing.T) {
	bin := patchedTofu(t)
	e := newEnv(t)
	tree(e)
	e.write(filepath.Join(e.root, "prerel.hcl"), choice)
	data := filepath.Join(e.tmp, "data")
	mustInit(t, e, bin, data)

	got := installed(t, data)
	got[provider] = e.locked()
	want := e.resolved(data)
	t.Logf("installed %s", mapString(got))
	if mapString(got) != mapString(want) {
		t.Fatalf("the patched init installed\n  %s\nresolve says the chosen policies select\n  %s", mapString(got), mapString(want))
	}
	// What the chosen policies select here differs from today's rule
	// for every call the file names, so the test proves the patch acts.
	for k, v := range map[string]string{"local.net": "2.0.0-beta.2", "db": "1.2.0-rc.1", "app": "3.0.0", "app.inner": "1.0.0-beta.2", provider: "2.0.0-beta1"} {
		if got[k] != v {
			t.Errorf("%s: installed %q, want %q", k, got[k], v)
		}
	}

	// plan: the loader's check of the installed modules and the check of
	// the lock file against the configuration pass; what is left is the
	// test provider, which is not a real plugin and cannot start.
	out, _ := e.run(bin, data, "plan", "-input=false", "-no-color")
	for _, bad := range []string{"Module version requirements have changed", "Inconsistent dependency lock file", "doesn't match", "don't match", "Module not installed"} {
		if strings.Contains(out, bad) {
			t.Errorf("plan refused what init installed (%q):\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "thing") {
		t.Errorf("plan did not reach the provider:\n%s", out)
	}
	if rel := releaseTofu(); rel != "" {
		// The release refuses the same installation: the re-checks are the
		// patch's doing.
		out, _ := e.run(rel, data, "plan", "-input=false", "-no-color")
		if !strings.Contains(out, "Module version requirements have changed") && !strings.Contains(out, "match") {
			t.Errorf("the release's plan accepted the chosen policies' installation:\n%s", out)
		}
	}

	// A later init keeps the installation, even with a newer version
	// the policy would select now.
	e.reg.publish("net", "2.0.0-beta.3")
	mustInit(t, e, bin, data)
	again := installed(t, data)
	again[provider] = e.locked()
	if mapString(again) != mapString(got) {
		t.Errorf("a later init installed\n  %s\nwant it kept\n  %s", mapString(again), mapString(got))
	}
	// -upgrade takes the newer one.
	mustInit(t, e, bin, data, "-upgrade")
	if v := installed(t, data)["local.net"]; v != "2.0.0-beta.3" {
		t.Errorf("init -upgrade installed local.net %q, want 2.0.0-beta.3", v)
	}
}

// TestWithoutConfig: without prerel.hcl the patched init installs what
// the release installs, on the same tree, and fails where it fails.
func TestWithoutConfig(t *testing.T) {
	bin := patchedTofu(t)
	rel := releaseTofu()
	if rel == "" {
		t.Skip("no release tofu to compare with: .ci/run builds it into ~/.cache/prerel/tofu-v1.12.6")
	}
	e := newEnv(t)
	tree(e)
	results := map[string]string{}
	for _, b := range []string{bin, rel} {
		data := filepath.Join(e.tmp, "data-"+filepath.Base(filepath.Dir(b)))
		os.Remove(filepath.Join(e.root, config.LockFileName))
		out, err := e.init(b, data)
		got := installed(t, data)
		if got == nil {
			got = map[string]string{}
		}
		got[provider] = e.locked()
		got["error"] = fmt.Sprint(err != nil)
		results[b] = mapString(got) + " | " + strings.Join(errorLines(out), "; ")
	}
	t.Logf("release: %s", results[rel])
	if results[bin] != results[rel] {
		t.Errorf("without prerel.hcl\n  patched: %s\n  release: %s", results[bin], results[rel])
	}
}

var errorLine = regexp.MustCompile(`(?m)^(Error: .*|.*no available version of module "[^"]+".*)$`)

// errorLines are the error summaries of an init's output, and the
// modules no version was found for, sorted, without paths.
func errorLines(out string) []string {
	lines := errorLine.FindAllString(out, -1)
	sort.Strings(lines)
	return slices.Compact(lines)
}
