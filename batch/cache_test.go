package batch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

// TestCompileCacheBoundedByBytes checks the accounting of the evaluator's compile
// cache: a long constraint is compiled for its line and not kept, and the
// constraints kept never add up to more than maxCachedBytes or
// maxCachedConstraints, however many distinct ones come.
func TestCompileCacheBoundedByBytes(t *testing.T) {
	strict, ok := catalogue.New().Lookup("strict")
	if !ok {
		t.Fatal("no strict policy")
	}
	c := &compileCache{policy: strict}
	check := func(when string) {
		t.Helper()
		sum := 0
		for k := range c.entries.m {
			sum += len(k)
		}
		if sum != c.entries.bytes || c.entries.bytes > maxCachedBytes || len(c.entries.m) > maxCachedConstraints {
			t.Fatalf("%s: %d constraints of %d bytes cached, accounted as %d; the bounds are %d and %d bytes",
				when, len(c.entries.m), sum, c.entries.bytes, maxCachedConstraints, maxCachedBytes)
		}
	}

	long := ">= 1.0.0" + strings.Repeat(", >= 1.0.0", maxCachedConstraintLen/10)
	if r := c.judge(long, "1.0.0"); r.Verdict != engine.Allow {
		t.Fatalf("a long constraint: %v, want allow", r)
	}
	if len(c.entries.m) != 0 || c.entries.bytes != 0 {
		t.Fatalf("a constraint of %d bytes was cached (%d entries, %d bytes)", len(long), len(c.entries.m), c.entries.bytes)
	}

	// Distinct constraints just under the length limit fill the byte
	// bound many times over.
	pad := strings.Repeat(", >= 0.0.1", (maxCachedConstraintLen-40)/10)
	for i := 0; i < 3*maxCachedBytes/maxCachedConstraintLen; i++ {
		constraint := fmt.Sprintf(">= 1.0.%d%s", i, pad)
		if len(constraint) > maxCachedConstraintLen {
			t.Fatalf("a constraint of %d bytes, longer than %d", len(constraint), maxCachedConstraintLen)
		}
		c.judge(constraint, "2.0.0")
		check(fmt.Sprintf("after %d long constraints", i+1))
	}
	if c.entries.bytes == 0 {
		t.Fatal("nothing cached")
	}

	// Many short constraints reach the bound on entries first.
	for i := 0; i < maxCachedConstraints+100; i++ {
		c.judge(fmt.Sprintf(">= %d", i), "2.0.0")
		if i%1000 == 0 {
			check(fmt.Sprintf("after %d short constraints", i+1))
		}
	}
	check("at the end")

	// A cached constraint answers as a fresh one does.
	c.judge(">= 1.0.0-beta", "1.0.0-rc.1")
	if r := c.judge(">= 1.0.0-beta", "1.0.0-rc.1"); r.Verdict != engine.Reject {
		t.Errorf("cached constraint: %v, want reject", r)
	}
}

// TestTableCacheBounded checks the accounting of the evaluator's table cache: a
// long constraint is compiled for its lines and not kept; the entries kept
// never count more than maxTableCacheBytes or maxCachedConstraints,
// however many distinct constraints come; when the cache starts over it
// reads its table again; and a new stream of versions drops both.
func TestTableCacheBounded(t *testing.T) {
	strict, ok := catalogue.New().Lookup("strict")
	if !ok {
		t.Fatal("no strict policy")
	}
	stream := &streamVersions{}
	versions := []string{"1.0.0", "2.0.0-beta", "2.0.0"}
	stream.add(versions, make([]int32, len(versions)))
	c := &tableCache{policy: strict, verdicts: true}
	check := func(when string) {
		t.Helper()
		sum := 0
		for k, e := range c.entries.m {
			sum += tableEntryBytes + len(k) + len(e.verdicts)
		}
		if sum != c.entries.bytes || c.entries.bytes > maxTableCacheBytes || len(c.entries.m) > maxCachedConstraints {
			t.Fatalf("%s: %d constraints counting %d bytes cached, accounted as %d; the bounds are %d and %d bytes",
				when, len(c.entries.m), sum, c.entries.bytes, maxCachedConstraints, maxTableCacheBytes)
		}
	}

	long := ">= 1.0.0" + strings.Repeat(", >= 1.0.0", maxCachedConstraintLen/10)
	if e := c.compile(stream, long); e.err != nil || !slices.Equal(e.verdicts, []engine.Verdict{engine.Allow, engine.Reject, engine.Allow}) {
		t.Fatalf("a long constraint: %v %v, want allow, reject, allow", e.verdicts, e.err)
	}
	if len(c.entries.m) != 0 || c.entries.bytes != 0 {
		t.Fatalf("a constraint of %d bytes was cached (%d entries, %d bytes)", len(long), len(c.entries.m), c.entries.bytes)
	}

	// Distinct constraints fill the byte bound many times over; each
	// time the cache starts over, its table is read again.
	table := c.table
	tables := 0
	for i := 0; i < 3*maxTableCacheBytes/tableEntryBytes; i++ {
		c.compile(stream, fmt.Sprintf(">= 1.0.%d", i))
		check(fmt.Sprintf("after %d constraints", i+1))
		if c.table != table {
			table = c.table
			tables++
		}
	}
	if tables < 2 {
		t.Errorf("the table was read %d times again, want at least 2: the cache started over without it", tables)
	}

	// A cached constraint answers as a fresh one does, until the
	// stream's versions change.
	first := c.compile(stream, ">= 1.0.0-beta")
	if again := c.compile(stream, ">= 1.0.0-beta"); again != first {
		t.Errorf("a cached constraint was compiled again")
	}
	versions = []string{"2.0.0-beta", "0.9.0"}
	stream.add(versions, make([]int32, len(versions)))
	e := c.compile(stream, ">= 1.0.0-beta")
	if e == first || !slices.Equal(e.verdicts, []engine.Verdict{engine.Reject, engine.Reject}) {
		t.Errorf("after new versions: %v, want a new entry judging reject, reject", e.verdicts)
	}
	if len(c.entries.m) != 1 {
		t.Errorf("after new versions, %d entries kept, want 1", len(c.entries.m))
	}
}
