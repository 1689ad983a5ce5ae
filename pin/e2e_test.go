package pin_test

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
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// e2eHost is the registry host of the end-to-end test: a host block of
// the CLI configuration points it at the local server, so that no name
// is looked up.
const e2eHost = "registry.prerel.test"

// moduleRegistry is a module registry over HTTPS on 127.0.0.1 that
// serves corp/net/aws, and the same versions as a registry.Source for
// the planner.
type moduleRegistry struct {
	srv      *httptest.Server
	mu       sync.Mutex
	versions []string
}

func newModuleRegistry(t *testing.T, versions ...string) *moduleRegistry {
	r := &moduleRegistry{versions: versions}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/v1/modules/"}`)
	})
	mux.HandleFunc("GET /v1/modules/corp/net/aws/versions", func(w http.ResponseWriter, _ *http.Request) {
		var vs []map[string]string
		for _, v := range r.list() {
			vs = append(vs, map[string]string{"version": v})
		}
		json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": vs}}})
	})
	mux.HandleFunc("GET /v1/modules/corp/net/aws/{version}/download", func(w http.ResponseWriter, req *http.Request) {
		v := req.PathValue("version")
		if !slices.Contains(r.list(), v) {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("X-Terraform-Get", r.srv.URL+"/archives/net-"+v+".tar.gz")
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /archives/{name}", func(w http.ResponseWriter, req *http.Request) {
		v := strings.TrimSuffix(strings.TrimPrefix(req.PathValue("name"), "net-"), ".tar.gz")
		w.Write(moduleArchive(t, fmt.Sprintf("output \"version\" {\n  value = %q\n}\n", v)))
	})
	r.srv = httptest.NewTLSServer(mux)
	t.Cleanup(r.srv.Close)
	return r
}

func (r *moduleRegistry) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.versions)
}

// publish adds a version.
func (r *moduleRegistry) publish(v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.versions = append(r.versions, v)
}

func (r *moduleRegistry) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	if pkg.String() != e2eHost+"/corp/net/aws" {
		return nil, fmt.Errorf("%s: %w", pkg, registry.ErrNotFound)
	}
	return &registry.Listing{Versions: r.list(), From: r.srv.URL}, nil
}

func (r *moduleRegistry) ProviderVersions(_ context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	return nil, fmt.Errorf("%s: %w", p, registry.ErrNotFound)
}

func (r *moduleRegistry) String() string { return "the test registry" }

// moduleArchive returns a .tar.gz holding main.tf.
func moduleArchive(t *testing.T, mainTF string) []byte {
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

// installer finds terraform or tofu on PATH.
func installer(t *testing.T) string {
	for _, name := range []string{"terraform", "tofu"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("neither terraform nor tofu is on PATH: the end-to-end test needs one")
	return ""
}

// TestEndToEnd pins a registry module called from a local child module,
// runs the real init against a local registry and finds the pinned
// version installed; a newer prerelease makes Check report a difference;
// Remove and init again install today's selection.
func TestEndToEnd(t *testing.T) {
	longtest.Skip(t)
	bin := installer(t)
	reg := newModuleRegistry(t, "1.0.0", "1.1.0", "2.0.0-beta.1")

	tmp := t.TempDir()
	root := filepath.Join(tmp, "root")
	data := filepath.Join(tmp, "data")
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "main.tf"), "module \"app\" {\n  source = \"./app\"\n}\n")
	write(filepath.Join(root, "app", "main.tf"), fmt.Sprintf("module \"net\" {\n  source  = %q\n  version = \"~> 1.0\"\n}\n", e2eHost+"/corp/net/aws"))
	ca := filepath.Join(tmp, "ca.pem")
	write(ca, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: reg.srv.Certificate().Raw})))
	cliConfig := filepath.Join(tmp, "cli.tfrc")
	write(cliConfig, fmt.Sprintf("host %q {\n  services = {\n    \"modules.v1\" = %q\n  }\n}\n", e2eHost, reg.srv.URL+"/v1/modules/"))

	init := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"init", "-backend=false", "-input=false", "-no-color"}, args...)...)
		cmd.Dir = root
		cmd.Env = []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + tmp,
			"TF_CLI_CONFIG_FILE=" + cliConfig, "SSL_CERT_FILE=" + ca, "TF_DATA_DIR=" + data,
			"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "NO_PROXY=*",
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s init: %v\n%s", bin, err, out)
		}
	}
	installed := func() map[string]string {
		t.Helper()
		m, diags := config.LoadManifest(filepath.Join(data, "modules", config.ManifestFileName))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		out := map[string]string{}
		for k, r := range m {
			if r.Version != "" {
				out[k] = r.Version
			}
		}
		t.Logf("installed: %v", out)
		return out
	}
	cfg, err := policyconfig.New(policies)
	if err != nil {
		t.Fatal(err)
	}
	if diags := cfg.SetDefault("linear", policyconfig.FlagOrigin("--policy linear")); diags.HasErrors() {
		t.Fatal(diags)
	}
	planNow := func() (*resolve.Report, *pin.Plan) {
		t.Helper()
		rep, err := resolve.Run(context.Background(), resolve.Options{Dir: root, ModulesDir: filepath.Join(data, "modules"),
			Config: cfg, Versions: reg, Policies: policies, SkipFile: pin.Skip})
		if err != nil {
			t.Fatal(err)
		}
		tree, diags := config.LoadTree(root, config.TreeOptions{SkipFile: pin.Skip})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		pin.Render(&b, pin.Text, p, pin.RenderOptions{})
		t.Logf("plan:\n%s", b.String())
		return rep, p
	}
	// Today's selection, without pins.
	init()
	if got := installed(); got["app.net"] != "1.1.0" {
		t.Fatalf("without pins init installed %v, want app.net 1.1.0", got)
	}

	_, p := planNow()
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
	init()
	if got := installed(); !equalMaps(got, want) {
		t.Errorf("with the pins init installed %v, want exactly what the plan reported, %v", got, want)
	}

	// A newer prerelease: the files on disk are out of date.
	reg.publish("2.0.0-beta.2")
	_, p2 := planNow()
	diffs, err := pin.Check(p2)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 1 || diffs[0].Kind != "changed" || !strings.Contains(diffs[0].Diff, `+  version = "2.0.0-beta.2"`) {
		t.Errorf("Check after publishing 2.0.0-beta.2: %+v", diffs)
	}

	// Without the pins, init installs today's selection again.
	if removed, err := pin.Remove(p2); err != nil || len(removed) != 1 {
		t.Fatalf("Remove: %q, %v", removed, err)
	}
	init()
	if got := installed(); got["app.net"] != "1.1.0" {
		t.Errorf("after Remove init installed %v, want app.net 1.1.0", got)
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
