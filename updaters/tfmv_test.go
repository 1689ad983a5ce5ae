package updaters_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/updaters"
)

// TestTerraformModuleVersionsManyRanges compiles constraints of n and 8n
// hyphen ranges and compares the bytes allocated: reading the ranges is
// linear in the constraint, so eight times the ranges take about eight
// times the memory, where rewriting the whole string once per range took
// about 64 times (60,000 ranges took 15 s). Not run in parallel, since
// it reads the process's allocation count.
func TestTerraformModuleVersionsManyRanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rng     func(i int) string
		version string
		want    engine.Verdict
	}{
		{"alternatives", func(i int) string { return fmt.Sprintf("%d.0.0 - %d.0.0 || ", i, i+1) }, "2.5.0", engine.Allow},
		{"chained", func(i int) string { return fmt.Sprintf("%d - %d - %d, ", i, i+1, i+2) }, "1.0.0", engine.Invalid},
	} {
		constraint := func(n int) string {
			var b strings.Builder
			for i := range n {
				b.WriteString(tc.rng(i))
			}
			return strings.TrimSuffix(b.String(), " || ")
		}
		small, large := constraint(1000), constraint(8000)
		allocated := func(c string) uint64 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := engine.Evaluate(updaters.TerraformModuleVersions{}, c, tc.version)
			runtime.ReadMemStats(&after)
			if r.Verdict != tc.want {
				t.Errorf("%s: %d bytes | %s: %v (%s), want %v", tc.name, len(c), tc.version, r.Verdict, r.Reason[:min(len(r.Reason), 200)], tc.want)
			}
			return after.TotalAlloc - before.TotalAlloc
		}
		allocated(small) // warm up
		a, b := allocated(small), allocated(large)
		t.Logf("%s: %d ranges allocate %d bytes, %d ranges %d", tc.name, 1000, a, 8000, b)
		if b > 20*a {
			t.Errorf("%s: %d ranges allocate %d bytes, %d ranges %d: %.0f times, not about 8", tc.name, 1000, a, 8000, b, float64(b)/float64(a))
		}
	}
}
