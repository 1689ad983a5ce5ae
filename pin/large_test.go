package pin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prerel/prerel/pin"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/config"
	"github.com/prerel/prerel/terraform/registry"
)

// The shape of the large tree: module calls in all (local ones
// included), distinct registry module addresses, local child modules
// and providers.
const (
	largeCalls     = 200
	largeAddresses = 40
	largeChildren  = 4
	largeProviders = 30
)

// writeLargeTree writes a root module with largeChildren local children
// and largeCalls module calls in all over largeAddresses registry
// addresses, and largeProviders providers, each required by the root and
// some also by a child.
func writeLargeTree(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	write := func(path, content string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	providers := func(from, to int) string {
		var b strings.Builder
		b.WriteString("terraform {\n  required_providers {\n")
		for p := from; p < to; p++ {
			fmt.Fprintf(&b, "    p%02d = { source = \"corp/p%02d\", version = \">= 1.0.0\" }\n", p, p)
		}
		b.WriteString("  }\n}\n")
		return b.String()
	}
	call := func(b *strings.Builder, name string, n int) {
		fmt.Fprintf(b, "module %q {\n  source  = \"corp/m%02d/aws\"\n  version = \"~> 1.0\"\n}\n\n", name, n%largeAddresses)
	}
	perChild := (largeCalls - largeChildren) / (largeChildren + 1)
	var root strings.Builder
	root.WriteString(providers(0, largeProviders))
	n := 0
	for c := 0; c < largeChildren; c++ {
		fmt.Fprintf(&root, "module \"child%d\" {\n  source = \"./modules/child%d\"\n}\n\n", c, c)
		var child strings.Builder
		child.WriteString(providers(c*5, c*5+5))
		for i := 0; i < perChild; i++ {
			call(&child, fmt.Sprintf("m%03d", i), n)
			n++
		}
		write(filepath.Join(dir, "modules", fmt.Sprintf("child%d", c), "main.tf"), child.String())
	}
	for i := 0; n < largeCalls-largeChildren; i++ {
		call(&root, fmt.Sprintf("m%03d", i), n)
		n++
	}
	write(filepath.Join(dir, "main.tf"), root.String())
	write(filepath.Join(dir, "prerel.hcl"), "default_policy = \"linear\"\n")
	return dir
}

// slowRegistry is a registry that answers each request after delay and
// counts the requests per path. The delay stands for a registry's latency
// (BenchmarkPinLargeTree's 50 ms); no test asserts anything about time, only
// about the requests counted.
type slowRegistry struct {
	srv   *httptest.Server
	delay time.Duration
	mu    sync.Mutex
	paths map[string]int
}

func newSlowRegistry(tb testing.TB, delay time.Duration) *slowRegistry {
	r := &slowRegistry{delay: delay, paths: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.paths[req.URL.Path]++
		r.mu.Unlock()
		time.Sleep(r.delay)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case req.URL.Path == "/.well-known/terraform.json":
			fmt.Fprint(w, `{"modules.v1": "/v1/modules/", "providers.v1": "/v1/providers/"}`)
		case strings.HasPrefix(req.URL.Path, "/v1/modules/"):
			fmt.Fprint(w, `{"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0"}, {"version": "1.2.0-beta.1"}]}]}`)
		case strings.HasPrefix(req.URL.Path, "/v1/providers/"):
			fmt.Fprint(w, `{"versions": [{"version": "1.0.0"}, {"version": "1.1.0"}, {"version": "2.0.0-rc1"}]}`)
		default:
			http.NotFound(w, req)
		}
	}))
	tb.Cleanup(r.srv.Close)
	return r
}

// requests returns the requests seen, and resets the count.
func (r *slowRegistry) requests() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.paths
	r.paths = map[string]int{}
	return out
}

// planLarge resolves the tree in dir against the registry and plans the
// pins, as prerel pin does.
func planLarge(tb testing.TB, dir string, reg *slowRegistry) *pin.Plan {
	tb.Helper()
	cfg, diags := policyconfig.Load(policies, filepath.Join(dir, "prerel.hcl"))
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	client := &registry.Client{BaseURL: reg.srv.URL}
	rep, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: cfg, Versions: client, Policies: policies, SkipFile: pin.Skip})
	if err != nil {
		tb.Fatal(err)
	}
	tree, tdiags := config.LoadTree(dir, config.TreeOptions{SkipFile: pin.Skip})
	if tdiags.HasErrors() {
		tb.Fatal(tdiags)
	}
	p, err := pin.Build(rep, tree, pin.Options{Policies: policies})
	if err != nil {
		tb.Fatal(err)
	}
	for _, it := range rep.Items {
		if it.Status != resolve.StatusOK {
			tb.Fatalf("%s %s: %s %s", it.Kind, it.Name, it.Status, it.Problem)
		}
	}
	return p
}

// TestLargeTreeLooksUpEachAddressOnce checks that a run asks the registry
// for each address exactly once, and for its discovery document once.
func TestLargeTreeLooksUpEachAddressOnce(t *testing.T) {
	dir := writeLargeTree(t)
	reg := newSlowRegistry(t, time.Millisecond)
	p := planLarge(t, dir, reg)
	got := reg.requests()
	want := map[string]int{"/.well-known/terraform.json": 1}
	for a := 0; a < largeAddresses; a++ {
		want[fmt.Sprintf("/v1/modules/corp/m%02d/aws/versions", a)] = 1
	}
	for p := 0; p < largeProviders; p++ {
		want[fmt.Sprintf("/v1/providers/corp/p%02d/versions", p)] = 1
	}
	for path, n := range got {
		if want[path] != n {
			t.Errorf("%s requested %d times, want %d", path, n, want[path])
		}
	}
	for path := range want {
		if got[path] == 0 {
			t.Errorf("%s not requested", path)
		}
	}
	calls := 0
	tree, _ := config.LoadTree(dir, config.TreeOptions{})
	for _, n := range tree.Nodes {
		calls += len(n.Module.ModuleCalls)
	}
	if calls != largeCalls {
		t.Errorf("the tree has %d module calls, want %d", calls, largeCalls)
	}
	if len(p.Pins) == 0 {
		t.Error("nothing pinned")
	}
}

// BenchmarkPinLargeTree plans the pins of a tree of 200 module calls over
// 40 registry addresses and 30 providers, against a registry that takes
// 50 ms to answer each request.
func BenchmarkPinLargeTree(b *testing.B) {
	dir := writeLargeTree(b)
	reg := newSlowRegistry(b, 50*time.Millisecond)
	reg.requests()
	total := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		planLarge(b, dir, reg)
		for _, n := range reg.requests() {
			total += n
		}
	}
	b.ReportMetric(float64(total)/float64(b.N), "requests/op")
}
