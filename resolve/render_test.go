package resolve_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/registry"
)

// modulesConfig is a main.tf with a call per name, each of corp/NAME/aws
// under the given constraint.
func modulesConfig(constraint string, names ...string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "module %q {\n  source  = \"corp/%s/aws\"\n  version = %q\n}\n", n, n, constraint)
	}
	return b.String()
}

// renderBoth renders r as text with and without ShowAll.
func renderBoth(t *testing.T, r *resolve.Report) (cut, all string) {
	t.Helper()
	var a, b bytes.Buffer
	if err := resolve.Render(&a, report.Text, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	if err := resolve.Render(&b, report.Text, r, report.Options{ShowAll: true, Hints: report.Hints{ShowAll: "--show-all"}}); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

// section returns the lines of the text report's section with the given
// title, without their indent, each line joined with its continuations
// (the report wraps them at 80 columns with an indent of 4).
func section(out, title string) []string {
	_, rest, ok := strings.Cut(out, "\n"+title+":\n")
	if !ok {
		return nil
	}
	var lines []string
	for _, l := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		if strings.HasPrefix(l, "    ") && len(lines) > 0 {
			lines[len(lines)-1] += " " + strings.TrimPrefix(l, "    ")
			continue
		}
		lines = append(lines, strings.TrimPrefix(l, "  "))
	}
	return lines
}

// TestRenderGroupsProblems checks that items that share a problem (the
// same registry error, the same absence from an index) are one line of
// the Problems list naming them, cut with a count unless ShowAll, and
// that the report says what it left out.
func TestRenderGroupsProblems(t *testing.T) {
	down := httptest.NewServer(nil)
	down.Close() // a registry that is down: every request is refused
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	tests := []struct {
		name     string
		files    map[string]string
		versions func(dir string) registry.Source
		want     []string // the Problems lines, cut
		wantAll  []string // the Problems lines with ShowAll
		leftOut  string   // the last line, cut
	}{
		{
			name:  "registry down",
			files: map[string]string{"main.tf": modulesConfig("1.0.0", names...)},
			versions: func(string) registry.Source {
				return &registry.Client{BaseURL: down.URL, Timeout: 5 * time.Second, Retries: -1}
			},
			want: []string{"modules a, b, c, d, e, f and 2 more (8 items): service discovery for registry.terraform.io: GET " +
				down.URL + "/.well-known/terraform.json: cannot reach the registry: "},
			wantAll: []string{"modules a, b, c, d, e, f, g, h (8 items): service discovery for registry.terraform.io: GET " +
				down.URL + "/.well-known/terraform.json: cannot reach the registry: "},
			leftOut: "2 items left out; --show-all lists them",
		},
		{
			name: "unknown modules in an offline index, one known",
			files: map[string]string{
				"main.tf":    modulesConfig("1.0.0", "known", "x", "y", "z"),
				"index.json": `{"modules": {"corp/known/aws": ` + moduleBody("1.0.0") + `}}`,
			},
			versions: func(dir string) registry.Source {
				x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
				if err != nil {
					t.Fatal(err)
				}
				return x
			},
			want:    []string{"modules x, y, z (3 items): not found in "},
			wantAll: []string{"modules x, y, z (3 items): not found in "},
		},
		{
			name: "distinct problems stay apart, the list cut at 10 lines",
			files: map[string]string{
				"main.tf": modulesConfig("~> 9.0", "m01", "m02", "m03", "m04", "m05", "m06", "m07", "m08", "m09", "m10", "m11", "m12"),
				"index.json": `{"modules": {` + func() string {
					var parts []string
					for i := 1; i <= 12; i++ {
						parts = append(parts, fmt.Sprintf(`"corp/m%02d/aws": %s`, i, moduleBody("1.0.0")))
					}
					return strings.Join(parts, ", ")
				}() + `}}`,
			},
			versions: func(dir string) registry.Source {
				x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
				if err != nil {
					t.Fatal(err)
				}
				return x
			},
			want: []string{
				`module m01 (main.tf:3:13): no available version of module corp/m01/aws matches`,
				`module m02 (main.tf:7:13): no available version of module corp/m02/aws matches`,
				"module m03", "module m04", "module m05", "module m06", "module m07", "module m08", "module m09", "module m10",
				"and 2 more",
			},
			wantAll: []string{
				`module m01 (main.tf:3:13): no available version of module corp/m01/aws matches`,
				`module m02 (main.tf:7:13): no available version of module corp/m02/aws matches`,
				"module m03", "module m04", "module m05", "module m06", "module m07", "module m08", "module m09", "module m10",
				"module m11", "module m12",
			},
			// 6 items alike that strict selects no version for; 2
			// problems, 2 modules not read.
			leftOut: "6 items and 4 lines left out; --show-all lists them",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeDir(t, tt.files)
			r, err := runResolve(context.Background(), resolve.Options{
				Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: tt.versions(dir), Policies: testRegistry,
			})
			if err != nil {
				t.Fatal(err)
			}
			cut, all := renderBoth(t, r)
			for _, c := range []struct {
				out  string
				want []string
			}{{cut, tt.want}, {all, tt.wantAll}} {
				got := section(c.out, "Problems")
				if len(got) != len(c.want) {
					t.Fatalf("Problems has %d lines, want %d:\n%s", len(got), len(c.want), c.out)
				}
				for i, w := range c.want {
					if !strings.HasPrefix(got[i], w) {
						t.Errorf("Problems line %d = %q, want it to start with %q", i+1, got[i], w)
					}
				}
			}
			last := strings.TrimSuffix(cut, "\n")
			last = last[strings.LastIndex(last, "\n")+1:]
			if tt.leftOut != "" && last != tt.leftOut {
				t.Errorf("last line = %q, want %q", last, tt.leftOut)
			}
			if tt.leftOut == "" && strings.Contains(cut, "left out") {
				t.Errorf("nothing was cut, yet the report says:\n%s", cut)
			}
			if strings.Contains(all, "left out") || strings.Contains(all, "more") {
				t.Errorf("with ShowAll the report cuts something:\n%s", all)
			}
			if t.Failed() {
				t.Logf("report:\n%s", cut)
			}
		})
	}
}

// TestRenderGroupsUnreadableVersions checks that the versions an item's
// policies cannot read are one line per set of policies, with two
// examples (the versions other policies select first) and a count.
func TestRenderGroupsUnreadableVersions(t *testing.T) {
	var versions []string
	for i := 0; i < 30; i++ {
		versions = append(versions, fmt.Sprintf("v1.%d.0", i))
	}
	versions = append(versions, "3.23")
	dir := writeDir(t, map[string]string{
		"main.tf": `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 1.0.0"
    }
  }
}`,
		"index.json": `{"providers": {"hashicorp/aws": ` + providerBody(versions...) + `}}`,
	})
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{
		Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: x, Policies: testRegistry, Extra: mustPolicies(t, "apparentlymart-exact"),
	})
	if err != nil {
		t.Fatal(err)
	}
	const title = "Listed versions some policies cannot read (never selected by them)"
	cut, all := renderBoth(t, r)
	want := []string{ // in the order of the JSON's unreadable list
		"provider aws: 3.23 by strict",
		"provider aws: v1.29.0, v1.28.0 and 28 more by apparentlymart, apparentlymart-exact",
	}
	if got := section(cut, title); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("unreadable versions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasSuffix(cut, "\n28 versions left out; --show-all lists them\n") {
		t.Errorf("the report does not end with what it left out:\n%s", cut)
	}
	got := section(all, title)
	if len(got) != 2 || !strings.HasPrefix(got[1], "provider aws: v1.0.0, v1.1.0, v1.2.0,") || !strings.Contains(got[1], "v1.29.0 by apparentlymart") {
		t.Errorf("with ShowAll, unreadable versions:\n%s", strings.Join(got, "\n"))
	}
	if len(r.Items) != 1 || len(r.Items[0].Unreadable) != 31 {
		t.Errorf("the report keeps %d unreadable versions, want 31", len(r.Items[0].Unreadable))
	}
}

// cliOptions are the render options prerel resolve passes without
// --show-all: its reports name the flag, as the golden files do.
var cliOptions = report.Options{Hints: report.Hints{ShowAll: "--show-all"}}

// TestRenderQuotesBlankVersions checks that an unreadable version that is
// empty or starts or ends with a space is quoted, so that it can be seen.
func TestRenderQuotesBlankVersions(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 1.0.0"
    }
  }
}`,
		"index.json": `{"providers": {"hashicorp/aws": ` + providerBody("1.0.0", "", " 1.0.0") + `}}`,
	})
	x, err := registry.LoadIndex(filepath.Join(dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := runResolve(context.Background(), resolve.Options{
		Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: x, Policies: testRegistry,
	})
	if err != nil {
		t.Fatal(err)
	}
	cut, _ := renderBoth(t, r)
	got := strings.Join(section(cut, "Listed versions some policies cannot read (never selected by them)"), "\n")
	if !strings.Contains(got, `"", " 1.0.0" by`) {
		t.Errorf("unreadable versions:\n%s\nwant the blank ones quoted", got)
	}
}

// TestRenderSumsUpAFailingHost checks that the lookups a host fails with
// 503, the first retried and the rest not (past the host's limit of
// errors in a row), are one line of the Problems list: how many lookups
// failed and how, one URL path as an example, the limit told once.
func TestRenderSumsUpAFailingHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/terraform.json" {
			fmt.Fprint(w, `{"modules.v1": "/m/"}`)
			return
		}
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	dir := writeDir(t, map[string]string{"main.tf": modulesConfig("1.0.0", names...)})
	r, err := runResolve(context.Background(), resolve.Options{
		Dir: dir, Config: loadConfig(t, t.TempDir()), Policies: testRegistry,
		Versions: &registry.Client{BaseURL: srv.URL, Timeout: 5 * time.Second, Retries: 3,
			RetryWait: time.Millisecond, MaxRetryWait: time.Millisecond, HostErrorLimit: 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	cut, all := renderBoth(t, r)
	for _, out := range []string{cut, all} {
		got := section(out, "Problems")
		if len(got) != 1 {
			t.Fatalf("Problems has %d lines, want 1:\n%s", len(got), out)
		}
		for _, want := range []string{
			" (10 items): " + host + " answered 503 Service Unavailable to 10 lookups, such as GET /m/corp/",
			"; not retried once " + host + " gave 4 server errors in a row",
		} {
			if !strings.Contains(got[0], want) {
				t.Errorf("Problems line %q\ndoes not say %q", got[0], want)
			}
		}
		if n := strings.Count(got[0], "server errors in a row"); n != 1 {
			t.Errorf("Problems line %q tells the limit %d times", got[0], n)
		}
	}
	// The report's items keep their own problems.
	for _, it := range r.Items {
		if !strings.Contains(it.Problem, host+" answered 503 Service Unavailable") {
			t.Errorf("item %s: problem %q", it.Name, it.Problem)
		}
	}
}
