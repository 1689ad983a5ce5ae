package compare

import (
	"bufio"
	"cmp"
	"fmt"
	"io/fs"
	"maps"
	"strconv"
	"strings"
)

// Relevance says how common the constraint shape of a class (or of a
// split) is among real constraints: how many of the real constraints a
// RelevanceTable holds have the same shape as its witness's constraint.
// The shape is the constraint part of a signature without the relations
// to the version: operators as written and versions as V (N, N.N or N.N.N
// for "~>"), with their marks, so that "~> 5.0" and "~> 1.2" share the
// shape "~> N.N".
type Relevance struct {
	// Shape is the constraint shape that was counted.
	Shape string `json:"shape"`
	// Count is how many real constraints have that shape, of Of.
	Count int `json:"count"`
	Of    int `json:"of"`
	// Share is Count / Of, from 0 to 1.
	Share float64 `json:"share"`
}

// String writes the share as a percentage with one decimal, "12.4%".
func (r *Relevance) String() string {
	if r == nil || r.Of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*r.Share, 'f', 1, 64) + "%"
}

// RelevanceTable counts real constraints by shape.
type RelevanceTable struct {
	// Source says where the constraints come from, for reports.
	Source string
	counts map[string]int
	total  int
}

// NewRelevanceCounts is the relevance table that counts constraint
// shapes as counts does, as a RelevanceTable's Shapes gives them: its
// total is their sum. counts is not kept.
func NewRelevanceCounts(source string, counts map[string]int) *RelevanceTable {
	t := &RelevanceTable{Source: source, counts: maps.Clone(counts)}
	if t.counts == nil {
		t.counts = map[string]int{}
	}
	for _, n := range t.counts {
		t.total += n
	}
	return t
}

// Shapes are the counts of the table by constraint shape, a copy.
func (t *RelevanceTable) Shapes() map[string]int {
	out := maps.Clone(t.counts)
	if out == nil {
		out = map[string]int{}
	}
	return out
}

// Total is the number of constraints the table counts.
func (t *RelevanceTable) Total() int { return t.total }

// NewRelevanceTable counts the shapes of the given constraints; source
// says where they come from.
func NewRelevanceTable(source string, constraints []string) *RelevanceTable {
	t := &RelevanceTable{Source: source, counts: map[string]int{}}
	for _, c := range constraints {
		t.counts[constraintShapeOf(c)]++
		t.total++
	}
	return t
}

// relevanceFile is the file of a corpus (laid out as prerel's
// testdata/corpus) that CorpusRelevance reads: real module calls and
// provider requirements, one a row, tab-separated, with a header naming a
// "constraint" column (empty when the call has no version argument).
const relevanceFile = "calls/calls.tsv"

// CorpusRelevance reads the constraints of the real calls of a corpus
// (calls/calls.tsv of fsys) into a table, one count per call, so that a
// shape counts as often as people write it.
func CorpusRelevance(fsys fs.FS) (*RelevanceTable, error) {
	f, err := fsys.Open(relevanceFile)
	if err != nil {
		return nil, fmt.Errorf("relevance: %w", err)
	}
	defer f.Close()
	var constraints []string
	column := -1
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "\t")
		if column < 0 {
			for i, name := range fields {
				if name == "constraint" {
					column = i
				}
			}
			if column < 0 {
				return nil, fmt.Errorf("relevance: %s: the header has no constraint column", relevanceFile)
			}
			continue
		}
		if column >= len(fields) {
			return nil, fmt.Errorf("relevance: %s:%d: %d fields, no constraint", relevanceFile, line, len(fields))
		}
		constraints = append(constraints, fields[column])
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("relevance: %s: %w", relevanceFile, err)
	}
	return NewRelevanceTable("the module calls and provider requirements of real Terraform configurations", constraints), nil
}

// Of returns the relevance of a constraint's shape; nil for a nil table.
func (t *RelevanceTable) Of(constraint string) *Relevance {
	if t == nil {
		return nil
	}
	shape := constraintShapeOf(constraint)
	r := &Relevance{Shape: shape, Count: t.counts[shape], Of: t.total}
	if t.total > 0 {
		r.Share = float64(r.Count) / float64(t.total)
	}
	return r
}

// relevanceMemo is RelevanceTable.Of remembered per constraint: the
// classes and splits that share a witness constraint share its Relevance.
type relevanceMemo struct {
	t  *RelevanceTable
	of map[string]*Relevance
}

func newRelevanceMemo(t *RelevanceTable) *relevanceMemo {
	return &relevanceMemo{t: t, of: map[string]*Relevance{}}
}

// Of is t.Of(constraint).
func (m *relevanceMemo) Of(constraint string) *Relevance {
	if m.t == nil {
		return nil
	}
	r, ok := m.of[constraint]
	if !ok {
		r = m.t.Of(constraint)
		m.of[constraint] = r
	}
	return r
}

// constraintShapeOf is the shape a Relevance counts: the constraint part of
// a signature without relations ("~> N.N", ">= V, < V", "(any)"), or for
// text the engine cannot parse `syntax "..."` with digits as N and
// letters as a.
func constraintShapeOf(constraint string) string {
	ci := newConstraintInfo(constraint)
	if !ci.ok {
		return "syntax " + strconv.Quote(syntaxShape(constraint))
	}
	cs := ci.parsed.Comparators()
	if len(cs) == 0 {
		return "(any)"
	}
	spaced := operatorSpacing(&ci, nil)
	var b strings.Builder
	for i := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeComparator(&b, &cs[i], i < len(spaced) && spaced[i])
	}
	return b.String()
}

// relevanceOrder compares (ra, na) with (rb, nb) for sorting, the first
// to come first negative: by relevance (larger share first), then count
// (larger first), or with byCount the other way round.
func relevanceOrder(ra *Relevance, na int64, rb *Relevance, nb int64, byCount bool) int {
	return shareOrder(ra.share(), na, rb.share(), nb, byCount)
}

// shareOrder is relevanceOrder on the shares of the relevances.
func shareOrder(sa float64, na int64, sb float64, nb int64, byCount bool) int {
	byShare, byN := cmp.Compare(sb, sa), cmp.Compare(nb, na)
	if byCount {
		return cmp.Or(byN, byShare)
	}
	return cmp.Or(byShare, byN)
}

// share is r's Share, 0 for a nil r.
func (r *Relevance) share() float64 {
	if r == nil {
		return 0
	}
	return r.Share
}

// Rank is how reports order classes and splits.
type Rank string

// The ranks.
const (
	// RankRelevance orders by relevance, then by count: what real
	// constraints meet most comes first. It is the default.
	RankRelevance Rank = "relevance"
	// RankCount orders by count, then by relevance.
	RankCount Rank = "count"
)

// ParseRank reads a rank name; "" is RankRelevance.
func ParseRank(s string) (Rank, error) {
	switch Rank(s) {
	case "", RankRelevance:
		return RankRelevance, nil
	case RankCount:
		return RankCount, nil
	}
	return "", fmt.Errorf("unknown rank %q: expected relevance or count", s)
}
