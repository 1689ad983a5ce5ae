package resolve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/registry"
)

// The outside text the tests below serve or write into a configuration.
const (
	escWarning      = "\x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m"
	markdownWarning = "![tracker](https://evil.example/pixel.png) [click me](https://evil.example/phish)"
	escLabel        = `\u001b[31mRED\u001b[0m` // as written in HCL
	backtickSource  = "git::https://example.com/a``b ![img](https://evil.example/p.png) ``.git"
	secret          = "s3cret"
)

// outsideConfig is a root module whose labels and sources carry control
// characters and Markdown, with a module call "evil" whose lookup fails
// and a provider whose registry answers with warnings.
var outsideConfig = `terraform {
  required_providers {
    thing = { source = "reg.example/ns/thing", version = ">= 1.0" }
  }
}
module "` + escLabel + `" {
  source  = "reg.example/ns/app/aws"
  version = ">= 1.0"
}
module "evil" {
  source  = "reg.example/ns/evil/aws"
  version = ">= 1.0"
}
module "src" {
  source = "` + backtickSource + `"
}
module "secret" {
  source = "git::https://user:` + secret + `@example.com/private.git"
}
`

// fakeSource answers every lookup from its maps, keyed by address.
type fakeSource struct {
	name     string
	listings map[string]*registry.Listing
	errs     map[string]error
}

func (f *fakeSource) get(key string) (*registry.Listing, error) {
	if err := f.errs[key]; err != nil {
		return nil, err
	}
	if l := f.listings[key]; l != nil {
		return l, nil
	}
	return nil, fmt.Errorf("%s: %w", key, registry.ErrNotFound)
}

func (f *fakeSource) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	return f.get(pkg.String())
}

func (f *fakeSource) ProviderVersions(_ context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	return f.get(p.String())
}

func (f *fakeSource) String() string { return f.name }

// outsideSource is a version source whose every answer carries outside
// text: warnings with escape sequences and Markdown, URLs with a
// password, and an error with a hostile status line.
func outsideSource() *fakeSource {
	url := "http://user:" + secret + "@127.0.0.1:1/v1/"
	return &fakeSource{
		name: "registry reg.example=http://user:" + secret + "@127.0.0.1:1",
		listings: map[string]*registry.Listing{
			"reg.example/ns/app/aws": {Versions: []string{"1.0.0", "2.0.0-beta"}, From: url + "modules/ns/app/aws/versions"},
			"reg.example/ns/thing": {Versions: []string{"1.0.0", "1.1.0\x1b[0m"}, From: url + "providers/ns/thing/versions",
				Warnings: []string{escWarning, markdownWarning}},
		},
		errs: map[string]error{
			"reg.example/ns/evil/aws": errors.New("module reg.example/ns/evil/aws: GET " + url + "modules/ns/evil/aws/versions: 500 \x1b[31mEVIL\x1b[0m"),
		},
	}
}

// outsideDir writes outsideConfig into a directory whose own name holds
// an escape sequence.
func outsideDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "root\x1b[2J")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(outsideConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// renderAll renders r in every format.
func renderAll(t *testing.T, r *resolve.Report) map[string]string {
	t.Helper()
	out := map[string]string{}
	for ext, render := range map[string]func(*bytes.Buffer, *resolve.Report) error{
		"txt": func(w *bytes.Buffer, r *resolve.Report) error { return resolve.Render(w, report.Text, r, cliOptions) },
		"md": func(w *bytes.Buffer, r *resolve.Report) error {
			return resolve.Render(w, report.Markdown, r, cliOptions)
		},
		"json": func(w *bytes.Buffer, r *resolve.Report) error { return resolve.Render(w, report.JSON, r, cliOptions) },
	} {
		var b bytes.Buffer
		if err := render(&b, r); err != nil {
			t.Fatal(err)
		}
		out[ext] = b.String()
	}
	return out
}

// codeSpans matches code spans fenced by one backtick; linkMarkup a "[",
// "]" or "!" without a backslash before it.
var (
	codeSpans  = regexp.MustCompile("`[^`]*`")
	linkMarkup = regexp.MustCompile(`(^|[^\\])[\[\]!]`)
)

// checkOutside checks what every format must hold for outsideConfig: no
// control character, no password, no link or image in Markdown, and
// the outside text readable in escaped form.
func checkOutside(t *testing.T, out map[string]string) {
	t.Helper()
	for ext, s := range out {
		if i := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }); i >= 0 {
			t.Errorf("%s output has a control character at byte %d: %q", ext, i, s[max(0, i-40):min(len(s), i+40)])
		}
		if strings.Contains(s, secret) {
			t.Errorf("%s output shows the password:\n%s", ext, s)
		}
	}
	for _, want := range []string{
		`the registry warns: \x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m`,
		"the registry warns: " + markdownWarning,
		`   \x1b[31mRED\x1b[0m  >= 1.0`,
		`500 \x1b[31mEVIL\x1b[0m`,
		"root\\x1b[2J",
	} {
		// The lists after the table wrap at 80 columns, their lines
		// continued with an indent of 4.
		if !strings.Contains(strings.ReplaceAll(out["txt"], "\n    ", " "), want) {
			t.Errorf("text output lacks %q:\n%s", want, out["txt"])
		}
	}
	md := out["md"]
	// Outside the code spans, no "[", "]" or "!" may open a link or image.
	plain := codeSpans.ReplaceAllString(strings.ReplaceAll(md, "```"+backtickSource+"```", ""), "")
	if m := linkMarkup.FindString(plain); m != "" {
		t.Errorf("Markdown output has %q unescaped outside code spans:\n%s", m, plain)
	}
	for _, want := range []string{
		"```" + backtickSource + "```",
		`\!\[tracker\](https://evil.example/pixel.png) \[click me\](https://evil.example/phish)`,
		"`\\x1b[31mRED\\x1b[0m`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown output lacks %q:\n%s", want, md)
		}
	}
	var j struct {
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out["json"]), &j); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(j.Warnings, "\n"), escWarning) {
		t.Errorf("JSON warnings lose the registry's text: %q", j.Warnings)
	}
}

// TestOutsideTextIsEscaped resolves a configuration whose labels,
// sources and directory name, and whose registry answers, carry escape
// sequences, Markdown links and images, backtick runs and passwords in
// URLs: the text report escapes every control character, the Markdown
// report shows the text literally, JSON keeps it (escaped as JSON
// escapes it), and no format shows the password.
func TestOutsideTextIsEscaped(t *testing.T) {
	dir := outsideDir(t)
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: outsideSource(), Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	out := renderAll(t, r)
	checkOutside(t, out)
	for ext, s := range out {
		s = strings.ReplaceAll(s, filepath.Dir(dir), "TMP")
		golden.Check(t, filepath.Join("testdata", "golden", "outside."+ext), []byte(s))
	}
}

// TestOutsideTextFromARegistry runs the same configuration against a
// registry on a loopback test server reached through a URL with a
// password: its providers endpoint sends warnings with escape sequences
// and Markdown, and one module's endpoint answers 500 with an escape
// sequence in the reason phrase.
func TestOutsideTextFromARegistry(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/terraform.json":
			fmt.Fprint(w, `{"modules.v1": "/m/", "providers.v1": "/p/"}`)
		case "/m/ns/app/aws/versions":
			fmt.Fprint(w, moduleBody("1.0.0", "2.0.0-beta"))
		case "/p/ns/thing/versions":
			warnings, _ := json.Marshal([]string{escWarning, markdownWarning})
			fmt.Fprintf(w, `{"versions": [{"version": "1.0.0"}], "warnings": %s}`, warnings)
		case "/m/ns/evil/aws/versions":
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			buf.WriteString("HTTP/1.1 500 \x1b[31mEVIL\x1b[0m\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			buf.Flush()
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "http://user:"+secret+"@", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := runResolve(ctx, resolve.Options{
		Dir: outsideDir(t), Config: loadConfig(t, t.TempDir()), Policies: testRegistry,
		Versions: &registry.Client{HostURLs: map[string]string{"reg.example": base}, Timeout: 5 * time.Second, Retries: -1},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkOutside(t, renderAll(t, r))
	if got := r.Items[0].From; !strings.HasPrefix(got, "http://") || strings.Contains(got, secret) {
		t.Errorf("From = %q", got)
	}
}

// TestReportRedactsURLCredentials checks that every field that shows a
// URL from the version source or the configuration shows it without its
// password.
func TestReportRedactsURLCredentials(t *testing.T) {
	r, err := runResolve(context.Background(), resolve.Options{Dir: outsideDir(t), Config: loadConfig(t, t.TempDir()), Versions: outsideSource(), Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]string{"versions_from": r.VersionsFrom}
	for _, it := range r.Items {
		fields[it.Name+" from"] = it.From
		fields[it.Name+" problem"] = it.Problem
	}
	for _, u := range r.Unread {
		fields[u.Module+" unread source"] = u.Source
	}
	for _, k := range r.Skipped {
		fields[k.Name+" skipped source"] = k.Source
	}
	for name, v := range fields {
		if strings.Contains(v, secret) {
			t.Errorf("%s = %q shows the password", name, v)
		}
	}
	if !strings.Contains(r.VersionsFrom, "@127.0.0.1:1") || !strings.Contains(r.Items[0].From, "@127.0.0.1:1/v1/modules/") {
		t.Errorf("the URLs are lost, not redacted: %q, %q", r.VersionsFrom, r.Items[0].From)
	}

	// A report built by other means is rendered without the password too,
	// and is left as it is.
	url := "https://user:" + secret + "@reg.example/v1/"
	built := &resolve.Report{
		VersionsFrom: "registry " + url,
		Items: []resolve.Item{{Kind: resolve.KindModule, Name: "m", Status: resolve.StatusError, From: url + "m",
			Problem: "module reg.example/ns/m/aws: GET " + url + "m: 500 Internal Server Error"}},
		Skipped:  []resolve.Skip{{Kind: resolve.KindModule, Name: "s", Source: "git::" + url + "s.git"}},
		Warnings: []string{"see " + url},
	}
	for ext, out := range renderAll(t, built) {
		if strings.Contains(out, secret) || !strings.Contains(out, "@reg.example/v1/") {
			t.Errorf("%s output of a built report:\n%s", ext, out)
		}
	}
	if !strings.Contains(built.VersionsFrom, secret) {
		t.Error("rendering changed the report")
	}
}

// TestLegendOnlyWhenARowIsMarked checks that the line saying what a
// marked row means is printed only when some row is marked.
func TestLegendOnlyWhenARowIsMarked(t *testing.T) {
	tests := []struct {
		name       string
		constraint string
		marked     bool
	}{
		{"every policy agrees", ">= 1.0.0", false},
		{"the chosen policy admits a prerelease", ">= 2.0.0-beta", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeDir(t, map[string]string{"main.tf": modulesConfig(tt.constraint, "app"), "prerel.hcl": `default_policy = "cargo"`})
			src := &fakeSource{name: "fake", listings: map[string]*registry.Listing{
				"registry.terraform.io/corp/app/aws": {Versions: []string{"1.0.0", "2.0.0-beta"}},
			}}
			r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, dir), Versions: src, Policies: testRegistry})
			if err != nil {
				t.Fatal(err)
			}
			if r.Marked() != tt.marked {
				t.Fatalf("Marked() = %v, want %v", r.Marked(), tt.marked)
			}
			out := renderAll(t, r)
			for ext, legend := range map[string]string{"txt": "* the chosen policy selects another version", "md": "**changed**: the chosen policy selects another version"} {
				if got := strings.Contains(out[ext], legend); got != tt.marked {
					t.Errorf("%s: legend printed: %v, want %v\n%s", ext, got, tt.marked, out[ext])
				}
			}
		})
	}
}

// nilPolicy is a policy type whose nil pointer is not a usable policy.
type nilPolicy struct{ name string }

func (p *nilPolicy) Name() string                           { return p.name }
func (p *nilPolicy) Rule() string                           { return "none" }
func (p *nilPolicy) Compile(string) (engine.Matcher, error) { return nil, errors.New("none") }

// TestNilArguments checks that nil policies among the extra ones, a nil
// version source and a nil report are errors, not panics.
func TestNilArguments(t *testing.T) {
	cfg := loadConfig(t, t.TempDir())
	src := &fakeSource{name: "fake"}
	for _, tt := range []struct {
		name string
		opts resolve.Options
		want string
	}{
		{"nil extra policy", resolve.Options{Dir: exampleDir, Config: cfg, Versions: src, Policies: testRegistry, Extra: []engine.Policy{nil}}, "Options.Extra[0] is a nil policy"},
		{"typed nil among extra policies", resolve.Options{Dir: exampleDir, Config: cfg, Versions: src, Policies: testRegistry, Extra: []engine.Policy{mustPolicies(t, "strict")[0], (*nilPolicy)(nil)}}, "Options.Extra[1] is a nil policy"},
		{"typed nil source", resolve.Options{Dir: exampleDir, Config: cfg, Versions: (*fakeSource)(nil), Policies: testRegistry}, "Options.Versions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runResolve(context.Background(), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
	var nilReport *resolve.Report
	for name, render := range map[string]func() error{
		"text": func() error { return resolve.Render(&bytes.Buffer{}, report.Text, nil, cliOptions) },
		"text, everything": func() error {
			return resolve.Render(&bytes.Buffer{}, report.Text, nil, report.Options{ShowAll: true})
		},
		"markdown": func() error { return resolve.Render(&bytes.Buffer{}, report.Markdown, nil, report.Options{}) },
		"json":     func() error { return resolve.Render(&bytes.Buffer{}, report.JSON, nil, report.Options{}) },
	} {
		if err := render(); err == nil {
			t.Errorf("%s of a nil report: no error", name)
		}
	}
	if nilReport.Errors() != nil || nilReport.Unsatisfied() != nil || nilReport.RefusedLocks() != nil ||
		nilReport.ProblemGroups("") != nil || nilReport.Marked() {
		t.Error("a nil report has items")
	}
}

// TestRefusedLocks checks that RefusedLocks lists the locked versions of
// required providers that the chosen policy does not admit, and only
// those.
func TestRefusedLocks(t *testing.T) {
	dir := writeDir(t, map[string]string{
		"main.tf": `terraform {
  required_providers {
    thing = { source = "reg.example/ns/thing", version = ">= 1.0" }
    other = { source = "reg.example/ns/other", version = ">= 1.0" }
  }
}`,
		".terraform.lock.hcl": `provider "reg.example/ns/thing" {
  version = "2.0.0-beta"
}
provider "reg.example/ns/other" {
  version = "1.0.0"
}
provider "reg.example/ns/gone" {
  version = "0.1.0-rc1"
}
`,
	})
	src := &fakeSource{name: "fake", listings: map[string]*registry.Listing{
		"reg.example/ns/thing": {Versions: []string{"1.0.0", "2.0.0-beta"}},
		"reg.example/ns/other": {Versions: []string{"1.0.0"}},
	}}
	r, err := runResolve(context.Background(), resolve.Options{Dir: dir, Config: loadConfig(t, t.TempDir()), Versions: src, Policies: testRegistry})
	if err != nil {
		t.Fatal(err)
	}
	refused := r.RefusedLocks()
	if len(refused) != 1 || refused[0].Address != "reg.example/ns/thing" || refused[0].Version != "2.0.0-beta" || refused[0].Policy != "strict" {
		t.Errorf("RefusedLocks() = %+v", refused)
	}
	if len(r.Unsatisfied()) != 0 || len(r.Errors()) != 0 {
		t.Errorf("unsatisfied %v, errors %v", r.Unsatisfied(), r.Errors())
	}
}
