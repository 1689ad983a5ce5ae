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

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
	"github.com/prerel/prerel/updaters"
)

// cooldownDir is the example under a minimum age of seven days.
var cooldownDir = filepath.Join("..", "testdata", "cooldown")

// cooldownNow is the time the example's ages are counted at.
var cooldownNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func cooldownRun(t *testing.T, now time.Time, undated bool, src registry.Source) *resolve.Report {
	t.Helper()
	cfg, diags := policyconfig.Load(testRegistry, filepath.Join(cooldownDir, "prerel.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if undated {
		yes := true
		cfg.SetCooldown(nil, &yes, policyconfig.FlagOrigin("--allow-undated"))
	}
	if src == nil {
		x, err := registry.LoadIndex(filepath.Join(cooldownDir, "index.json"))
		if err != nil {
			t.Fatal(err)
		}
		src = x
	}
	r, err := runResolve(context.Background(), resolve.Options{Dir: cooldownDir, Config: cfg, Versions: src, Policies: testRegistry, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// selections sums a report up: each item's selection, with what is held
// back.
func selections(r *resolve.Report) string {
	var parts []string
	for _, it := range r.Items {
		sel := "none"
		if it.Selected != nil {
			sel = *it.Selected
		}
		for _, h := range it.HeldBack {
			sel += " -" + h.Version
		}
		if it.Cooldown != nil && it.Cooldown.Exempt != "" {
			sel += " exempt"
		}
		parts = append(parts, it.Name+"="+sel)
	}
	return strings.Join(parts, " ")
}

func TestCooldownResolve(t *testing.T) {
	week := 7 * 24 * time.Hour
	for _, tt := range []struct {
		name    string
		now     time.Time
		undated bool
		want    string
	}{
		{"young versions held back, the pin exempt, the trap not sprung", cooldownNow, false,
			"db=6.10.0 exempt edge=none -2.0.0 vpc=5.1.0 -5.2.0 random=3.6.3 -3.7.0"},
		{"undated allowed", cooldownNow, true,
			"db=6.10.0 exempt edge=none -2.0.0 vpc=5.1.0 -5.2.0 random=3.7.0"},
		{"a week later", cooldownNow.Add(week), false,
			"db=6.10.0 exempt edge=2.0.0 vpc=5.2.0 random=3.6.3 -3.7.0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := cooldownRun(t, tt.now, tt.undated, nil)
			if got := selections(r); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCooldownGolden(t *testing.T) {
	r := cooldownRun(t, cooldownNow, false, nil)
	for ext, f := range map[string]report.Format{"txt": report.Text, "md": report.Markdown, "json": report.JSON} {
		var b bytes.Buffer
		if err := resolve.Render(&b, f, r, cliOptions); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", "cooldown."+ext), b.Bytes())
	}
}

// TestCooldownRegistryDates reads the dates from registry.terraform.io's
// v2 API, served locally, and says once that a host gives none.
func TestCooldownRegistryDates(t *testing.T) {
	srv := serveIndex(t, filepath.Join(cooldownDir, "index.json"))
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/modules/terraform-aws-modules/vpc/aws", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "include=module-versions" {
			http.Error(w, "query", http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, `{"data": {}, "included": [
  {"type": "module-versions", "attributes": {"version": "5.0.0", "published-at": "2025-11-02T09:00:00Z"}},
  {"type": "module-versions", "attributes": {"version": "5.1.0", "published-at": "2026-01-20T09:00:00Z"}},
  {"type": "module-versions", "attributes": {"version": "5.2.0", "published-at": "2026-02-27T15:30:00Z"}}]}`)
	})
	v2 := httptest.NewServer(mux)
	t.Cleanup(v2.Close)
	c := &registry.Client{BaseURL: srv.URL, V2URL: v2.URL + "/v2/", Timeout: 2 * time.Second, Retries: -1}
	r := cooldownRun(t, cooldownNow, false, c)
	// The local registry gives no dates but vpc's: every other version
	// is held back as undated.
	if got, want := selections(r), "db=6.10.0 exempt edge=none -2.0.0 vpc=5.1.0 -5.2.0 random=none -3.7.0 -3.6.3 -3.6.0"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if r.Items[2].Cooldown.DatesFrom != v2.URL+"/v2/modules/terraform-aws-modules/vpc/aws?include=module-versions" {
		t.Errorf("vpc's dates from %q", r.Items[2].Cooldown.DatesFrom)
	}
	if len(r.Cooldown.NoDates) != 1 || !strings.HasPrefix(r.Cooldown.NoDates[0], "registry.terraform.io gives no publication dates: 3 items' versions") {
		t.Errorf("the notes of the hosts without dates: %q, want one for modules and one for providers", r.Cooldown.NoDates)
	}
}

// ageFirst is the cooldown of OpenTofu's RFC #4444: the age first.
func ageFirst(minAge time.Duration, now time.Time) engine.Cooldown {
	return engine.Cooldown{MinAge: minAge, Now: now, AgeFirst: true}
}

// TestCooldownReaders reads the example as the bots' cooldowns and
// OpenTofu's RFC #4444 would: the order, the undated versions, the exact
// pin, the providers and the hosts each one dates.
func TestCooldownReaders(t *testing.T) {
	ps := mustPolicies(t, "renovate", "dependabot", "opentofu-module")
	readers := []resolve.Reader{
		{Name: "renovate", Policy: ps[0], Cooldown: &resolve.ReaderCooldown{Cooldown: updaters.RenovateCooldown, DatedHosts: []string{"registry.terraform.io"}, ProvidersWithoutAge: true, Pending: "pending"}},
		{Name: "dependabot", Policy: ps[1], Cooldown: &resolve.ReaderCooldown{Cooldown: updaters.DependabotCooldown, PublicDates: true, Pending: "cooldown"}},
		{Name: "rfc", Policy: ps[2], ModulesOnly: true, Cooldown: &resolve.ReaderCooldown{Cooldown: ageFirst, ModulesOnly: true}},
		{Name: "fallback-age-first", Policy: mustPolicies(t, "fallback")[0], Cooldown: &resolve.ReaderCooldown{Cooldown: ageFirst}},
	}
	r := cooldownRun(t, cooldownNow, false, nil)
	if err := r.AddReaders(readers); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"vpc":    {"renovate": "5.1.0", "dependabot": "5.1.0", "rfc": "5.1.0", "fallback-age-first": "5.1.0"},
		"db":     {"renovate": "pending", "dependabot": "cooldown", "rfc": "6.10.0"},
		"edge":   {"renovate": "2.0.0-rc.1", "dependabot": "2.0.0-rc.1", "rfc": "none", "fallback-age-first": "2.0.0-rc.1"},
		"random": {"renovate": "3.7.0", "dependabot": "3.7.0", "fallback-age-first": "3.6.3"},
	}
	for _, it := range r.Items {
		for name, w := range want[it.Name] {
			rd := it.Readers[name]
			got := "none"
			switch {
			case rd.Selects != nil:
				got = *rd.Selects
			case rd.Note != "":
				got = rd.Note
			}
			if got != w {
				t.Errorf("%s, %s: %q, want %q", it.Name, name, got, w)
			}
		}
	}
	// The fallback trap, read in the RFC's order by the chosen policy of
	// edge: without the cooldown it installs 2.0.0, a release; prerel's
	// order selects none.
	if sel := r.Items[1].Selected; r.Items[1].Name != "edge" || sel != nil {
		t.Errorf("edge under prerel's order: %v", sel)
	}
}
