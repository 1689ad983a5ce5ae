package engine

import (
	"runtime"
	"strings"
	"testing"
)

// TestParseConstraintMemoryBounded checks that malformed input with many
// commas is refused without reserving memory for every comma.
func TestParseConstraintMemoryBounded(t *testing.T) {
	s := strings.Repeat(",", 1<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := ParseConstraint(s); err == nil {
		t.Fatal("a run of commas parsed")
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("ParseConstraint of %d commas allocated %d bytes", len(s), got)
	}
	// Many comparators still parse, beyond the preallocated capacity.
	c, err := ParseConstraint(strings.Repeat(">= 1, ", 99) + "< 2")
	if err != nil || c.Len() != 100 {
		t.Fatalf("100 comparators: Len %d, error %v", c.Len(), err)
	}
}
