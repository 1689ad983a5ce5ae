// Package e2e is the end-to-end proof of a patched installer, shared by
// upstream/opentofu and upstream/terraform: a local registry over HTTPS
// (modules corp/NAME/aws, the signed provider corp/thing), a root module
// with its own CLI configuration, what init installed (the module
// manifest, the lock file), what `prerel resolve` says the chosen
// policies select, and the suites that compare them (ChosenPolicies,
// WithoutConfig, Differential). Each suite takes the Installer under
// test; the tests run in the long run only and skip when the patched
// binary is not named.
package e2e

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
	"github.com/prerel/prerel/internal/providerreg"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/installer"
	"github.com/prerel/prerel/terraform/registry"
)

// Host is the registry host of the tests: a host block of the CLI
// configuration points it at the local server.
const Host = "registry.prerel.test"

// Provider is the provider the tests install.
const Provider = Host + "/corp/thing"

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

// Registry is a registry over HTTPS on 127.0.0.1: modules corp/NAME/aws
// with their versions and contents, and the provider corp/thing. It is
// also the registry.Source of resolve.Run.
type Registry struct {
	srv       *httptest.Server
	mu        sync.Mutex
	modules   map[string][]string            // NAME → versions
	contents  map[string]func(string) string // NAME → main.tf of a version
	providers []string
}

// NewRegistry starts a registry that t closes.
func NewRegistry(t *testing.T) *Registry {
	r := &Registry{modules: map[string][]string{}, contents: map[string]func(string) string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/v1/modules/", "providers.v1": "/v1/providers/"}`)
	})
	packages := providerreg.New(t)
	packages.Handle(mux, func() []string { r.mu.Lock(); defer r.mu.Unlock(); return slices.Clone(r.providers) }, func() string { return r.srv.URL })
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

func (r *Registry) versions(name string) ([]string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	vs, ok := r.modules[name]
	return slices.Clone(vs), ok
}

// Module lists the module corp/NAME/aws with versions.
func (r *Registry) Module(name string, versions ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.modules[name] = versions
}

// Publish adds version v to the module corp/NAME/aws.
func (r *Registry) Publish(name, v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.modules[name] = append(r.modules[name], v)
}

// Content makes main.tf of each version of corp/NAME/aws what f says;
// by default it is one output, the version.
func (r *Registry) Content(name string, f func(version string) string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.contents[name] = f
}

// Providers lists versions of the provider corp/thing.
func (r *Registry) Providers(versions ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.providers = versions
}

// ModuleVersions and ProviderVersions make r the registry.Source of
// resolve.Run.
func (r *Registry) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	name := strings.TrimSuffix(strings.TrimPrefix(pkg.String(), Host+"/corp/"), "/aws")
	vs, ok := r.versions(name)
	if !ok {
		return nil, fmt.Errorf("%s: %w", pkg, registry.ErrNotFound)
	}
	return &registry.Listing{Versions: vs, From: r.srv.URL}, nil
}

// ProviderVersions: see ModuleVersions.
func (r *Registry) ProviderVersions(_ context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	r.mu.Lock()
	vs := slices.Clone(r.providers)
	r.mu.Unlock()
	if p.String() != Provider || len(vs) == 0 {
		return nil, fmt.Errorf("%s: %w", p, registry.ErrNotFound)
	}
	return &registry.Listing{Versions: vs, From: r.srv.URL}, nil
}

func (r *Registry) String() string { return "the test registry" }

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

// Env is a root module in a temporary directory with its own CLI
// configuration and registry; each run names its data directory.
type Env struct {
	t         *testing.T
	Reg       *Registry
	Tmp, Root string
	cli, ca   string
}

// NewEnv makes an Env with a registry of its own.
func NewEnv(t *testing.T) *Env {
	e := &Env{t: t, Reg: NewRegistry(t), Tmp: t.TempDir()}
	e.Root = filepath.Join(e.Tmp, "root")
	e.ca = filepath.Join(e.Tmp, "ca.pem")
	e.Write(e.ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: e.Reg.srv.Certificate().Raw})))
	e.cli = filepath.Join(e.Tmp, "cli.tfrc")
	e.Write(e.cli, fmt.Sprintf("host %q {\n  services = {\n    \"modules.v1\"   = %q\n    \"providers.v1\" = %q\n  }\n}\n",
		Host, e.Reg.srv.URL+"/v1/modules/", e.Reg.srv.URL+"/v1/providers/"))
	return e
}

// Write writes content to path, making its directory.
func (e *Env) Write(path, content string) {
	e.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// Run runs bin with args in the root module, with data directory data,
// no network beyond the local registry, and a generous deadline.
func (e *Env) Run(bin, data string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = e.Root
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + e.Tmp,
		"TF_CLI_CONFIG_FILE=" + e.cli, "SSL_CERT_FILE=" + e.ca, "TF_DATA_DIR=" + data,
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "NO_PROXY=*",
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Init runs init without a backend or input.
func (e *Env) Init(bin, data string, args ...string) (string, error) {
	return e.Run(bin, data, append([]string{"init", "-backend=false", "-input=false", "-no-color"}, args...)...)
}

// MustInit is Init that fails the test when init fails.
func (e *Env) MustInit(bin, data string, args ...string) {
	e.t.Helper()
	if out, err := e.Init(bin, data, args...); err != nil {
		e.t.Fatalf("%s init: %v\n%s", bin, err, out)
	}
}

// Installed returns the registry module versions of the module manifest
// in data, by call path; nil when there is none.
func Installed(t *testing.T, data string) map[string]string {
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

// Locked returns the version the lock file holds for Provider.
func (e *Env) Locked() string {
	e.t.Helper()
	path := filepath.Join(e.Root, config.LockFileName)
	if !isFile(path) {
		return ""
	}
	locks, diags := config.LoadLockFile(path)
	if diags.HasErrors() {
		e.t.Fatal(diags)
	}
	for _, l := range locks {
		if l.Address == Provider {
			return l.Version
		}
	}
	return ""
}

// Resolved returns what the chosen policies select, as `prerel resolve
// --installer REL` reports it: call path or provider address → version,
// "none" for none.
func (e *Env) Resolved(data string, rel installer.Release) map[string]string {
	e.t.Helper()
	pols := catalogue.New()
	cfg, diags := policyconfig.LoadDir(pols, e.Root)
	if diags.HasErrors() {
		e.t.Fatal(diags)
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
