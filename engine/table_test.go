package engine

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// batchCounter is a policy whose Matcher is a BatchMatcher that counts
// its MatchAll calls.
type batchCounter struct {
	baseOnly
	calls *atomic.Int32
}

func (p batchCounter) Compile(c string) (Matcher, error) {
	m, err := p.baseOnly.Compile(c)
	if err != nil {
		return nil, err
	}
	return countingBatch{m, p.calls}, nil
}

type countingBatch struct {
	Matcher
	calls *atomic.Int32
}

func (m countingBatch) MatchAll(versions []string, results []Result) {
	m.calls.Add(1)
	for i, v := range versions {
		results[i] = m.Match(v)
	}
}

// ownTable is a VersionReader whose ReadVersions returns tab.
type ownTable struct {
	baseOnly
	tab VersionTable
}

func (p ownTable) ReadVersions([]string) VersionTable { return p.tab }

// nilTable is a VersionTable that cannot be called.
type nilTable struct{}

func (*nilTable) Len() int                             { return 0 }
func (*nilTable) Compile(string) (TableMatcher, error) { return nil, errors.New("unreachable") }

// TestTextTable: the generic table judges every version as Compile and
// Match do, reason included, through Judge and Verdicts, and refuses a
// constraint with Compile's error.
func TestTextTable(t *testing.T) {
	versions := []string{"1.0.0", "1.5.0-rc.1", "2.0.0", "v1.2.3+b", "1.0", "x"}
	var calls atomic.Int32
	policies := []Policy{baseOnly{"base"}, batchCounter{baseOnly{"batch"}, &calls}}
	tests := []struct {
		constraint string
		err        bool
	}{
		{">= 1.0.0, < 2.0.0", false},
		{"", false},
		{"!= 2.0.0", false},
		{">=", true},
		{"1.0.0,", true},
	}
	for _, p := range policies {
		for _, tc := range tests {
			table := TextTable(p, versions)
			if table.Len() != len(versions) {
				t.Fatalf("%s: Len %d, want %d", p.Name(), table.Len(), len(versions))
			}
			m, err := table.Compile(tc.constraint)
			_, want := p.Compile(tc.constraint)
			if (err != nil) != tc.err || (err != nil) != (want != nil) || err != nil && err.Error() != want.Error() {
				t.Errorf("%s: %q: error %v, Compile error %v", p.Name(), tc.constraint, err, want)
				continue
			}
			if err != nil {
				continue
			}
			out := make([]Verdict, len(versions))
			m.Verdicts(out)
			for i, v := range versions {
				want := Evaluate(p, tc.constraint, v)
				if got := m.Judge(i); got != want {
					t.Errorf("%s: %q | %q: Judge %+v, Evaluate %+v", p.Name(), tc.constraint, v, got, want)
				}
				if out[i] != want.Verdict {
					t.Errorf("%s: %q | %q: Verdicts %v, Evaluate %v", p.Name(), tc.constraint, v, out[i], want.Verdict)
				}
			}
		}
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("MatchAll called %d times for 3 compiled constraints, want once each", n)
	}
}

// TestReadVersions: a VersionReader's own table is used, the text table
// stands in when it returns none, and a nil policy's table refuses every
// constraint with ErrNilPolicy.
func TestReadVersions(t *testing.T) {
	versions := []string{"1.0.0"}
	own := TextTable(baseOnly{"own"}, versions)
	if got := ReadVersions(ownTable{baseOnly{"reader"}, own}, versions); got != own {
		t.Errorf("ReadVersions did not return the reader's own table")
	}
	for _, tab := range []VersionTable{nil, (*nilTable)(nil)} {
		got := ReadVersions(ownTable{baseOnly{"reader"}, tab}, versions)
		if _, ok := got.(*textTable); !ok {
			t.Errorf("ReadVersions with a nil own table (%T) returned %T, want the text table", tab, got)
		}
	}
	for _, p := range []Policy{nil, (*valuePolicy)(nil)} {
		table := ReadVersions(p, versions)
		if table.Len() != 1 {
			t.Errorf("%T: Len %d, want 1", p, table.Len())
		}
		if _, err := table.Compile(">= 1.0.0"); !errors.Is(err, ErrNilPolicy) {
			t.Errorf("%T: Compile error %v, want ErrNilPolicy", p, err)
		}
	}
	if _, err := TextTable(nilCompiler{}, versions).Compile(""); !errors.Is(err, ErrNilMatcher) {
		t.Errorf("nil matcher: Compile error %v, want ErrNilMatcher", err)
	}
}

// TestBatchTableConcurrent: a batch matcher's results are computed once,
// whichever goroutine asks first (run it with -race).
func TestBatchTableConcurrent(t *testing.T) {
	versions := []string{"1.0.0", "2.0.0", "3.0.0-rc.1"}
	var calls atomic.Int32
	m, err := TextTable(batchCounter{baseOnly{"batch"}, &calls}, versions).Compile("< 3.0.0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out := make([]Verdict, len(versions))
			m.Verdicts(out)
			_ = m.Judge(g % len(versions))
		}()
	}
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("MatchAll called %d times, want once", n)
	}
}
