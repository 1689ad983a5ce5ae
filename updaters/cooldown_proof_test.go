package updaters_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/updaters"
)

// TestRenovateCooldownEqualsRenovate proves updaters.RenovateCooldown on
// Renovate's own checkMinimumReleaseAge and option defaults
// (testdata/renovate/cooldown.mjs): for every constraint of a small
// alphabet against every history of its versions, each one old, young,
// just past the minimum age but within Renovate's buffer, or undated,
// the version Renovate takes under minimumReleaseAge is the one the
// cooldown selects, and where every candidate is pending Renovate makes
// no update where the cooldown selects none.
func TestRenovateCooldownEqualsRenovate(t *testing.T) {
	t.Parallel()
	pin := readRenovatePackage(t, filepath.Join("testdata", "renovate", "package.json"))
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not on PATH")
	}
	dir := renovateDir(pin.Prerel.Renovate)
	if _, err := os.Stat(filepath.Join(dir, "ms", "package.json")); err != nil {
		missing(t, "Renovate's minimumReleaseAge modules are not installed in %s (testdata/renovate/install)", dir)
	}
	const minAge = 7 * 24 * time.Hour
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	// The ages, in minutes: old, young, past the age but within the
	// buffer, undated (-1).
	ages := []int{30 * 24 * 60, 2 * 24 * 60, 7*24*60 + 10, -1}
	alphabet := []string{"1.0.0", "1.1.0-rc.1", "1.1.0", "2.0.0"}
	constraints := []string{">= 1.0.0", "~> 1.0", "1.1.0", ">= 1.1.0-rc.1", "< 2.0.0", "= 1.1.0-rc.1"}
	type tc struct {
		constraint string
		versions   []string
		dates      engine.Dates
		input      string
	}
	var cases []tc
	r := updaters.Renovate{}
	n := 1
	for range alphabet {
		n *= len(ages) + 1
	}
	for code := 1; code < n; code++ {
		var versions []string
		var dates engine.Dates
		var minutes []int
		c := code
		for _, v := range alphabet {
			if k := c % (len(ages) + 1); k > 0 {
				versions = append(versions, v)
				minutes = append(minutes, ages[k-1])
				d := time.Time{}
				if ages[k-1] >= 0 {
					d = now.Add(-time.Duration(ages[k-1]) * time.Minute)
				}
				dates = append(dates, d)
			}
			c /= len(ages) + 1
		}
		for _, con := range constraints {
			m, err := r.Compile(con)
			if err != nil {
				t.Fatal(err)
			}
			releases := [][]any{}
			for i, v := range versions {
				if m.Match(v).Verdict != engine.Allow {
					continue
				}
				var age any
				if minutes[i] >= 0 {
					age = minutes[i]
				}
				releases = append(releases, []any{v, age})
			}
			in, _ := json.Marshal(map[string]any{"minimumReleaseAge": "7 days", "releases": releases})
			cases = append(cases, tc{con, versions, dates, string(in)})
		}
	}
	cmd := exec.Command(node, filepath.Join("testdata", "renovate", "cooldown.mjs"), dir)
	var input strings.Builder
	for _, c := range cases {
		input.WriteString(c.input + "\n")
	}
	cmd.Stdin = strings.NewReader(input.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	bad := 0
	for i := 0; sc.Scan(); i++ {
		if i >= len(cases) {
			t.Fatalf("cooldown.mjs answered more lines than cases")
		}
		c := cases[i]
		sel, err := engine.SelectCooled(r, c.constraint, c.versions, c.dates, updaters.RenovateCooldown(minAge, now))
		if err != nil {
			t.Fatal(err)
		}
		want := "none"
		switch {
		case sel.Found:
			want = sel.Version
		case sel.Without.Found:
			want = "pending"
		}
		if got := sc.Text(); got != want && bad < 10 {
			bad++
			t.Errorf("%s: Renovate takes %s, the cooldown %s", c.input, got, want)
		}
		if i == len(cases)-1 {
			t.Logf("%d cases proven", len(cases))
		}
	}
	_, _ = io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("cooldown.mjs: %v\n%s", err, stderr.String())
	}
	_ = fmt.Sprint
}
