package compare

import (
	"context"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

func TestVerdictsRoundTrip(t *testing.T) {
	v := []byte{0, 1, 2, 1, 1, 0, 2}
	s, err := encodeVerdicts(v)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeVerdicts(s, int64(len(v)))
	if err != nil || string(back) != string(v) {
		t.Fatalf("decode = %v, %v; want %v", back, err, v)
	}
	// A baseline for another case count, or of garbage, is an error.
	if _, err := decodeVerdicts(s, 100); err == nil {
		t.Error("verdicts of 7 cases read as 100")
	}
	if _, err := decodeVerdicts("not base64!", 7); err == nil {
		t.Error("garbage read as verdicts")
	}
	bomb, _ := encodeVerdicts(make([]byte, 1<<20))
	if _, err := decodeVerdicts(bomb, 8); err == nil || !strings.Contains(err.Error(), "want 2") {
		t.Errorf("a long stream for 8 cases: %v", err)
	}
	three, _ := encodeVerdicts([]byte{3})
	if _, err := decodeVerdicts(three, 1); err == nil {
		t.Error("verdict 3 accepted")
	}
}

// A run's log holds every policy's verdict on every case, in the domain's
// order, as engine.Evaluate gives it, whatever the number of workers: the
// groups of exhaustive scope 1 start and end inside the log's words.
func TestRunLogsEveryVerdict(t *testing.T) {
	names := []string{"strict", "lexical", "cargo", "core-only", "hashicorp", "masterminds"}
	if testing.Short() {
		names = []string{"strict", "cargo", "hashicorp"}
	}
	policies, err := catalogue.New().Resolve(names)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	if err := d.Groups(func(g Group) bool {
		for _, v := range g.Versions {
			for _, p := range policies {
				want[p.Name()] = append(want[p.Name()], byte(engine.Evaluate(p, g.Constraint, v).Verdict))
			}
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 3} {
		r, err := Run(context.Background(), d, policies, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		got := r.verdicts.get()
		for _, p := range policies {
			w, g := want[p.Name()], got[p.Name()]
			if len(g) != len(w) {
				t.Fatalf("%d workers: %s has %d verdicts, want %d", workers, p.Name(), len(g), len(w))
			}
			for i := range w {
				if g[i] != w[i] {
					t.Fatalf("%d workers: %s on case %d: %d, want %d", workers, p.Name(), i, g[i], w[i])
				}
			}
		}
	}
}

// TestVerdictLogRecordsGroups records groups of every length from 0 to
// 200 verdicts at offsets that start anywhere in a word, side by side in
// one log, from their bit planes, and reads back each verdict's two low
// bits in its place.
func TestVerdictLogRecordsGroups(t *testing.T) {
	var want []byte
	var groups [][]engine.Verdict
	for n := range 201 {
		g := make([]engine.Verdict, n)
		for i := range g {
			g[i] = engine.Verdict((i*7 + n*3) % 4) // 3: a verdict none of the three, kept as its low bits
		}
		groups = append(groups, g)
		for _, v := range g {
			want = append(want, byte(v&3))
		}
	}
	l := newVerdictLog(int64(len(want)), 1)
	offset := int64(0)
	for _, g := range groups {
		words := (len(g) + 63) / 64
		lo, hi := make([]uint64, words), make([]uint64, words)
		bitPlanes(g, lo, hi)
		l.record(0, offset, len(g), lo, hi)
		offset += int64(len(g))
	}
	got := l.verdicts([]string{"p"}, int64(len(want)))["p"]
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("case %d: verdict %d, want %d", i, got[i], want[i])
		}
	}
}
