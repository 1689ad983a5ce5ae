package resolve_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/registry"
)

// countingSource answers every lookup after a short wait, counting the
// lookups per address and the most under way at once. The wait only lets
// lookups overlap; what the test asserts (each address once, never more
// under way than the bound) holds however slow the machine is.
type countingSource struct {
	mu             sync.Mutex
	calls          map[string]int
	inFlight, most int
}

func (s *countingSource) enter(key string) {
	s.mu.Lock()
	s.calls[key]++
	s.inFlight++
	s.most = max(s.most, s.inFlight)
	s.mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	s.mu.Lock()
	s.inFlight--
	s.mu.Unlock()
}

func (s *countingSource) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	s.enter(pkg.String())
	if strings.Contains(pkg.String(), "broken") {
		return nil, fmt.Errorf("module %s: the registry is down", pkg)
	}
	return &registry.Listing{Versions: []string{"1.0.0", "1.1.0"}, From: "test"}, nil
}

func (s *countingSource) ProviderVersions(_ context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	s.enter(p.String())
	return &registry.Listing{Versions: []string{"2.0.0"}, From: "test"}, nil
}

func (s *countingSource) String() string { return "test" }

func TestLookupOncePerAddressBounded(t *testing.T) {
	var root, child strings.Builder
	root.WriteString("module \"child\" {\n  source = \"./child\"\n}\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&root, "module \"r%02d\" {\n  source  = \"corp/m%d/aws\"\n  version = \"~> 1.0\"\n}\n", i, i%10)
		fmt.Fprintf(&child, "module \"c%02d\" {\n  source  = \"corp/m%d/aws\"\n  version = \">= 1.0.0\"\n}\n", i, i%12)
	}
	root.WriteString("module \"bad1\" {\n  source  = \"corp/broken/aws\"\n  version = \"1.0.0\"\n}\n")
	child.WriteString("module \"bad2\" {\n  source  = \"corp/broken/aws\"\n  version = \"1.0.0\"\n}\n")
	child.WriteString("terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n")
	root.WriteString("terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\", version = \">= 2.0.0\" }\n  }\n}\n")
	dir := writeDir(t, map[string]string{"main.tf": root.String(), "child/main.tf": child.String()})
	for _, n := range []int{0, 1, 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			src := &countingSource{calls: map[string]int{}}
			r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: src,
				Policies: testRegistry, Concurrency: n})
			if err != nil {
				t.Fatal(err)
			}
			// 12 module addresses, the broken one and one provider.
			if len(src.calls) != 14 {
				t.Errorf("%d addresses looked up, want 14: %v", len(src.calls), src.calls)
			}
			for k, c := range src.calls {
				if c != 1 {
					t.Errorf("%s looked up %d times", k, c)
				}
			}
			bound := n
			if n == 0 {
				bound = resolve.DefaultConcurrency
			}
			if src.most > bound {
				t.Errorf("%d lookups at once, more than %d", src.most, bound)
			}
			var names, errs []string
			for _, it := range r.Items {
				names = append(names, it.Name)
				if it.Status == resolve.StatusError {
					errs = append(errs, it.Name+": "+it.Problem)
				}
			}
			if len(r.Items) != 63 || names[0] != "bad1" || names[len(names)-1] != "aws" {
				t.Errorf("items out of order: %v", names)
			}
			want := "bad1: module registry.terraform.io/corp/broken/aws: the registry is down\nchild.bad2: module registry.terraform.io/corp/broken/aws: the registry is down"
			if got := strings.Join(errs, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
