package compare

import (
	"bytes"
	"cmp"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/safefile"
)

// partialVersion is the version of the JSON form of a Partial. It changes
// whenever that form changes, and partial reports of different versions
// are not merged.
const partialVersion = 1

// verdictAbsent marks, in a partial report's verdicts, a case of another
// shard.
const verdictAbsent = 3

// Partial is the partial report of one or more shards of a run: what Run
// keeps of their cases (the counts per pair, the classes each pair kept
// with their counts and smallest witnesses, the classes the caps turned
// away, the splits, the selection and every verdict by case offset), with
// what must match for the shards to be merged: the whole domain's
// DomainInfo, the policies in order, the options that shape the report
// (reference, rank, relevance table) and the caps. RunPartial makes one,
// a Merger combines several, and Report turns a complete one into
// the Report of the whole run.
//
// Its JSON form (WriteJSON, ReadPartial) is an object
// with "partial" (its version, 1), "schema" (SchemaVersion), "domain",
// "domain_args", "policies", "fingerprints" (of each policy: the SHA-256
// of its verdicts on a sample of the exhaustive domain of MinScope),
// "reference", "rank", "relevance", "shards"
// ("of" and the shards it holds, "done"), "limits", "cases", "pairs"
// (counts, kept classes and "turned_away_from", the smallest class key
// the caps turned away), "split_cases", "splits",
// "splits_turned_away_from", "selection" and "verdicts" (per policy,
// packed as in a baseline, 3 marking the cases of other shards). It is
// the same for the same shards, whatever the order they were merged in.
type Partial struct {
	// DomainArgs records how the domain can be made again, for a
	// program that must (prerel compare records its domain flags). Run
	// and Report do not read it; a Merger keeps that of the partial with
	// the first shard.
	DomainArgs []string

	source     string // where it was read from, for errors
	info       DomainInfo
	policies   []string
	n          int   // shards in all
	shards     []int // the shards it holds, in order
	reference  string
	rank       Rank
	relevance  *RelevanceTable
	classLimit int
	splitLimit int
	agg        *aggregate
	verdicts   [][]byte // by policy, one byte per case of the domain; nil when not recorded
	prints     []string // the fingerprint of each policy
}

// Info describes the whole domain of the run, not only the partial's
// shards.
func (p *Partial) Info() DomainInfo { return p.info }

// Policies are the names of the policies compared, in run order.
func (p *Partial) Policies() []string { return slices.Clone(p.policies) }

// heldShards lists the shards the partial report holds, in order.
func (p *Partial) heldShards() []Shard {
	out := make([]Shard, len(p.shards))
	for i, k := range p.shards {
		out[i] = Shard{K: k, N: p.n}
	}
	return out
}

// cases is the number of cases the partial report's shards judged.
func (p *Partial) cases() int64 { return p.agg.cases }

// Relevance is the relevance table the run ranks by, or nil.
func (p *Partial) Relevance() *RelevanceTable { return p.relevance }

// Complete reports whether the partial report holds every shard of the
// run, so that Report can build the whole run's report from it.
func (p *Partial) Complete() bool { return len(p.shards) == p.n }

// missingShards lists the shards of the run the partial report lacks.
func (p *Partial) missingShards() []Shard {
	var out []Shard
	have := 0
	for k := 1; k <= p.n; k++ {
		if have < len(p.shards) && p.shards[have] == k {
			have++
			continue
		}
		out = append(out, Shard{K: k, N: p.n})
	}
	return out
}

// name is what errors call p: the file it was read from, or its shards.
func (p *Partial) name() string {
	if p.source != "" {
		return p.source
	}
	return "the partial report of " + shardList(p.heldShards())
}

// shardList writes shards as "shard 2/3" or "shards 1/3, 2/3".
func shardList(shards []Shard) string {
	names := make([]string, len(shards))
	for i, s := range shards {
		names[i] = s.String()
	}
	if len(names) == 1 {
		return "shard " + names[0]
	}
	return "shards " + strings.Join(names, ", ")
}

// The JSON form of a Partial.
type (
	partialJSON struct {
		Partial    int               `json:"partial"`
		Schema     int               `json:"schema"`
		Domain     DomainInfo        `json:"domain"`
		DomainArgs []string          `json:"domain_args,omitempty"`
		Policies   []string          `json:"policies"`
		Prints     []string          `json:"fingerprints"`
		Reference  string            `json:"reference"`
		Rank       Rank              `json:"rank"`
		Relevance  *relevanceJSON    `json:"relevance,omitempty"`
		Shards     shardsJSON        `json:"shards"`
		Limits     limitsJSON        `json:"limits"`
		Cases      int64             `json:"cases"`
		Pairs      []pairJSON        `json:"pairs"`
		SplitCases int64             `json:"split_cases"`
		Splits     []splitJSON       `json:"splits"`
		SplitsFrom *splitKeyJSON     `json:"splits_turned_away_from,omitempty"`
		Selection  *selectionJSON    `json:"selection,omitempty"`
		Verdicts   map[string]string `json:"verdicts,omitempty"`
	}
	relevanceJSON struct {
		Source string         `json:"source"`
		Total  int            `json:"total"`
		Shapes map[string]int `json:"shapes"`
	}
	shardsJSON struct {
		Of   int   `json:"of"`
		Done []int `json:"done"`
	}
	limitsJSON struct {
		ClassesPerPair int `json:"classes_per_pair"`
		Splits         int `json:"splits"`
	}
	pairJSON struct {
		A        string        `json:"a"`
		B        string        `json:"b"`
		Agree    int64         `json:"agree"`
		Diverge  int64         `json:"diverge"`
		Classes  []classJSON   `json:"classes"`
		AwayFrom *classKeyJSON `json:"turned_away_from,omitempty"`
	}
	classKeyJSON struct {
		Shape string         `json:"shape"`
		A     engine.Verdict `json:"a_verdict"`
		B     engine.Verdict `json:"b_verdict"`
	}
	classJSON struct {
		Shape      string         `json:"shape"`
		A          engine.Verdict `json:"a_verdict"`
		B          engine.Verdict `json:"b_verdict"`
		Count      int64          `json:"count"`
		Constraint string         `json:"constraint"`
		Version    string         `json:"version"`
		AReason    string         `json:"a_reason"`
		BReason    string         `json:"b_reason"`
	}
	splitKeyJSON struct {
		Shape    string `json:"shape"`
		Verdicts string `json:"verdicts"`
	}
	splitJSON struct {
		Shape      string `json:"shape"`
		Verdicts   string `json:"verdicts"`
		Count      int64  `json:"count"`
		Constraint string `json:"constraint"`
		Version    string `json:"version"`
	}
	selectionJSON struct {
		Groups int64               `json:"groups"`
		Pairs  []selectionPairJSON `json:"pairs"`
	}
	selectionPairJSON struct {
		Agree   int64                 `json:"agree"`
		Diverge int64                 `json:"diverge"`
		Witness *selectionWitnessJSON `json:"witness,omitempty"`
	}
	selectionWitnessJSON struct {
		Constraint string `json:"constraint"`
		History    string `json:"history"`
		A          string `json:"a"`
		B          string `json:"b"`
	}
)

// splitVerdictLetters writes the verdicts of a split key, one letter per
// policy: r reject, a allow, i invalid.
const splitVerdictLetters = "rai"

func splitVerdictsText(v string) string {
	b := make([]byte, len(v))
	for i := range len(v) {
		b[i] = splitVerdictLetters[v[i]]
	}
	return string(b)
}

func splitVerdictsBytes(s string, policies int) (string, error) {
	if len(s) != policies {
		return "", fmt.Errorf("verdicts %q: %d letters for %d policies", s, len(s), policies)
	}
	b := make([]byte, len(s))
	for i := range len(s) {
		x := strings.IndexByte(splitVerdictLetters, s[i])
		if x < 0 {
			return "", fmt.Errorf("verdicts %q: %q is not r, a or i", s, s[i])
		}
		b[i] = byte(x)
	}
	return string(b), nil
}

// WriteJSON writes the partial report as one line of JSON, the classes
// and splits of each pair in key order, so that the same shards give the
// same bytes. It is written as it is encoded, not held whole in memory.
func (p *Partial) WriteJSON(w io.Writer) error {
	if w == nil || p == nil {
		return errors.New("compare: writing a partial report needs a writer and a partial report")
	}
	j, err := p.toJSON()
	if err != nil {
		return err
	}
	return streamJSON(w, j, false)
}

func (p *Partial) toJSON() (*partialJSON, error) {
	a := p.agg
	j := &partialJSON{
		Partial: partialVersion, Schema: SchemaVersion, Domain: p.info, DomainArgs: p.DomainArgs,
		Policies: p.policies, Prints: p.prints, Reference: p.reference, Rank: p.rank,
		Shards:     shardsJSON{Of: p.n, Done: p.shards},
		Limits:     limitsJSON{ClassesPerPair: p.classLimit, Splits: p.splitLimit},
		Cases:      a.cases,
		SplitCases: a.splitCases,
		Pairs:      make([]pairJSON, len(a.pairs)),
		Splits:     []splitJSON{},
	}
	if t := p.relevance; t != nil {
		j.Relevance = &relevanceJSON{Source: t.Source, Total: t.total, Shapes: t.counts}
		if j.Relevance.Shapes == nil {
			j.Relevance.Shapes = map[string]int{}
		}
	}
	for k, pr := range pairIndexes(len(p.policies)) {
		pa := &a.pairs[k]
		pj := pairJSON{A: p.policies[pr[0]], B: p.policies[pr[1]], Agree: pa.agree, Diverge: pa.diverge, Classes: []classJSON{}}
		var keys []classKey
		pa.classes.each(func(ck classKey, _ *classAgg) { keys = append(keys, ck) })
		slices.SortFunc(keys, func(x, y classKey) int { return lessCompare(x.less(y), y.less(x)) })
		for _, ck := range keys {
			c := pa.classes.get(ck)
			pj.Classes = append(pj.Classes, classJSON{Shape: ck.shape, A: ck.a, B: ck.b, Count: c.count,
				Constraint: c.key.constraint, Version: c.key.version, AReason: c.ra.Reason, BReason: c.rb.Reason})
		}
		if pa.classes.full {
			b := pa.classes.bound
			pj.AwayFrom = &classKeyJSON{Shape: b.shape, A: b.a, B: b.b}
		}
		j.Pairs[k] = pj
	}
	var skeys []splitKey
	a.splits.each(func(sk splitKey, _ *splitAgg) { skeys = append(skeys, sk) })
	slices.SortFunc(skeys, func(x, y splitKey) int { return lessCompare(x.less(y), y.less(x)) })
	for _, sk := range skeys {
		s := a.splits.get(sk)
		j.Splits = append(j.Splits, splitJSON{Shape: sk.shape, Verdicts: splitVerdictsText(sk.verdicts), Count: s.count,
			Constraint: s.key.constraint, Version: s.key.version})
	}
	if a.splits.full {
		j.SplitsFrom = &splitKeyJSON{Shape: a.splits.bound.shape, Verdicts: splitVerdictsText(a.splits.bound.verdicts)}
	}
	if a.selection != nil {
		s := &selectionJSON{Groups: a.selGroups, Pairs: make([]selectionPairJSON, len(a.selection))}
		for k := range a.selection {
			sa := &a.selection[k]
			sp := selectionPairJSON{Agree: sa.agree, Diverge: sa.diverge}
			if w := sa.witness; w != nil {
				sp.Witness = &selectionWitnessJSON{Constraint: w.key.constraint, History: w.history, A: w.a, B: w.b}
			}
			s.Pairs[k] = sp
		}
		j.Selection = s
	}
	if p.verdicts != nil {
		j.Verdicts = make(map[string]string, len(p.policies))
		for i, name := range p.policies {
			s, err := encodeVerdicts(p.verdicts[i])
			if err != nil {
				return nil, fmt.Errorf("compare: the verdicts of %s: %w", name, err)
			}
			j.Verdicts[name] = s
		}
	}
	return j, nil
}

// lessCompare turns two less results into a comparison.
func lessCompare(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

// ReadPartial reads a partial report from path, a regular file or a pipe
// of at most safefile.ReportLimit bytes, as decodePartialFrom does; every
// error names the file, with the line and column of a mistake in its
// JSON.
func ReadPartial(path string) (*Partial, error) {
	data, err := safefile.ReadNamed(path, safefile.ReportLimit)
	if err != nil {
		return nil, err
	}
	p, err := decodePartial(data)
	if err != nil {
		return nil, inFile(path, err)
	}
	p.source = path
	return p, nil
}

// decodePartialFrom reads a partial report of at most safefile.ReportLimit
// bytes; name is what later errors call it. It fails, naming the line
// and column where it can, on malformed JSON, on unknown fields, on
// anything after the object, on a report that is not a partial one, on
// another partialVersion or SchemaVersion, and on counts, classes,
// splits or verdicts that do not fit together.
func decodePartialFrom(r io.Reader, name string) (*Partial, error) {
	if r == nil {
		return nil, errors.New("decode partial report: no reader")
	}
	data, err := safefile.ReadAll(r, name, safefile.ReportLimit)
	if err != nil {
		return nil, fmt.Errorf("decode partial report: %w", err)
	}
	p, err := decodePartial(data)
	if err != nil {
		var de *decodeError
		if errors.As(err, &de) {
			if de.line == 0 {
				return nil, fmt.Errorf("%s: %s", name, de.msg)
			}
			return nil, fmt.Errorf("%s:%d:%d: %s", name, de.line, de.col, de.msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p.source = name
	return p, nil
}

// notPartial is the end of the message for what is not a partial report.
const notPartial = "not a partial report written by prerel compare --shard"

func decodePartial(data []byte) (*Partial, error) {
	at := func(off int64, format string, args ...any) error {
		line, col := lineCol(data, off)
		return &decodeError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &decodeError{msg: "the file is empty: " + notPartial}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j partialJSON
	err := dec.Decode(&j)
	if err != nil || j.Partial == 0 {
		if e := notPartialError(data); e != nil {
			return nil, e
		}
	}
	if err != nil {
		return nil, jsonError(err, dec, data, "partial report", at)
	}
	if err := trailingData(dec, data, "partial report", at); err != nil {
		return nil, err
	}
	if j.Partial != partialVersion {
		return nil, &decodeError{msg: fmt.Sprintf("partial report version %d, this prerel merges version %d: run every shard with the same prerel", j.Partial, partialVersion)}
	}
	if j.Schema != SchemaVersion {
		return nil, &decodeError{msg: fmt.Sprintf("schema %d, this prerel reads schema %d", j.Schema, SchemaVersion)}
	}
	p, err := j.partial()
	if err != nil {
		return nil, &decodeError{msg: err.Error()}
	}
	return p, nil
}

// notPartialError tells, with a lenient look at data, a report, a
// baseline or another object from a partial report, for a clearer
// message than an unknown field; it is nil for what may be a partial
// report.
func notPartialError(data []byte) error {
	var probe struct {
		Partial *int            `json:"partial"`
		Schema  *int            `json:"schema"`
		Pairs   json.RawMessage `json:"pairs"`
	}
	if err := json.Unmarshal(data, &probe); err != nil || probe.Partial != nil {
		return nil
	}
	if probe.Schema != nil && probe.Pairs != nil {
		return &decodeError{msg: "a report or baseline, not a partial report: write partial reports with prerel compare --shard K/N --format json"}
	}
	return &decodeError{msg: "no \"partial\" version: " + notPartial}
}

// maxLimit bounds the caps a partial report may name.
const maxLimit = 1 << 30

// partial checks j and makes the Partial it describes.
func (j *partialJSON) partial() (*Partial, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("a partial report that does not hold together: "+format, args...)
	}
	if j.Domain.Name == "" && j.Domain.Description == "" {
		return nil, bad("no domain")
	}
	if j.Domain.Cases <= 0 {
		return nil, bad("the domain has %d cases", j.Domain.Cases)
	}
	np := len(j.Policies)
	if np < 2 {
		return nil, bad("%d policies", np)
	}
	seen := map[string]bool{}
	for _, name := range j.Policies {
		if name == "" || seen[name] {
			return nil, bad("the policy %q is empty or given twice", name)
		}
		seen[name] = true
	}
	if len(j.Prints) != np || slices.Contains(j.Prints, "") {
		return nil, bad("%d fingerprints for %d policies", len(j.Prints), np)
	}
	if j.Reference == "" || !seen[j.Reference] {
		return nil, bad("the reference %q is not among the policies", j.Reference)
	}
	rank, err := ParseRank(string(j.Rank))
	if err != nil || j.Rank == "" {
		return nil, bad("rank %q", j.Rank)
	}
	sh := j.Shards
	if sh.Of < 1 || sh.Of > maxShards || len(sh.Done) == 0 || len(sh.Done) > sh.Of {
		return nil, bad("shards %d of %d", len(sh.Done), sh.Of)
	}
	for i, k := range sh.Done {
		if k < 1 || k > sh.Of || i > 0 && k <= sh.Done[i-1] {
			return nil, bad("the shards %v of %d are not in order, each from 1 to %d", sh.Done, sh.Of, sh.Of)
		}
	}
	if len(j.Pairs) != np*(np-1)/2 {
		return nil, bad("%d pairs for %d policies, want %d", len(j.Pairs), np, np*(np-1)/2)
	}
	if j.Verdicts != nil && j.Domain.Cases*int64(np) > maxRecordedVerdicts {
		return nil, bad("verdicts of %d cases and %d policies, more than a run records (%d)", j.Domain.Cases, np, maxRecordedVerdicts)
	}
	lim := j.Limits
	pairs := pairIndexes(np)
	if lim.ClassesPerPair < 1 || lim.ClassesPerPair > maxLimit || lim.Splits < 1 || lim.Splits > maxLimit {
		return nil, bad("limits %d classes per pair, %d splits", lim.ClassesPerPair, lim.Splits)
	}
	if j.Cases < 0 || j.Cases > j.Domain.Cases {
		return nil, bad("%d cases of a domain of %d", j.Cases, j.Domain.Cases)
	}
	p := &Partial{
		DomainArgs: j.DomainArgs,
		info:       j.Domain,
		policies:   j.Policies,
		prints:     j.Prints,
		n:          sh.Of,
		shards:     sh.Done,
		reference:  j.Reference,
		rank:       rank,
		classLimit: lim.ClassesPerPair,
		splitLimit: lim.Splits,
	}
	if r := j.Relevance; r != nil {
		t := &RelevanceTable{Source: r.Source, counts: r.Shapes, total: r.Total}
		if t.counts == nil {
			t.counts = map[string]int{}
		}
		sum := 0
		for _, n := range t.counts {
			if n < 0 || n > t.total {
				return nil, bad("relevance counts larger than the total %d", t.total)
			}
			sum += n
		}
		if sum != t.total {
			return nil, bad("relevance counts add up to %d, not the total %d", sum, t.total)
		}
		p.relevance = t
	}
	a := newSizedAggregate(len(pairs), lim.ClassesPerPair, lim.Splits)
	a.cases, a.splitCases = j.Cases, j.SplitCases
	if a.splitCases < 0 || a.splitCases > a.cases {
		return nil, bad("%d split cases of %d", a.splitCases, a.cases)
	}
	for k, pj := range j.Pairs {
		pr := pairs[k]
		if pj.A != j.Policies[pr[0]] || pj.B != j.Policies[pr[1]] {
			return nil, bad("pair %d is %s vs %s, want %s vs %s", k+1, pj.A, pj.B, j.Policies[pr[0]], j.Policies[pr[1]])
		}
		if pj.Agree < 0 || pj.Diverge < 0 || pj.Agree+pj.Diverge != a.cases || pj.Diverge > a.splitCases {
			return nil, bad("%s vs %s agree on %d and diverge on %d of %d cases", pj.A, pj.B, pj.Agree, pj.Diverge, a.cases)
		}
		if len(pj.Classes) > lim.ClassesPerPair {
			return nil, bad("%s vs %s has %d classes, more than %d", pj.A, pj.B, len(pj.Classes), lim.ClassesPerPair)
		}
		pa := &a.pairs[k]
		pa.agree, pa.diverge = pj.Agree, pj.Diverge
		var bound *classKey
		if pj.AwayFrom != nil {
			bound = &classKey{pj.AwayFrom.Shape, pj.AwayFrom.A, pj.AwayFrom.B}
		}
		var sum int64
		for _, cj := range pj.Classes {
			ck := classKey{cj.Shape, cj.A, cj.B}
			if cj.A == cj.B || cj.Count < 1 || cj.Version == "" || pa.classes.get(ck) != nil ||
				bound != nil && !ck.less(*bound) {
				return nil, bad("%s vs %s: the class %q (%s, %s, %d cases) is empty, given twice, of one verdict or past the classes turned away",
					pj.A, pj.B, cj.Shape, cj.A, cj.B, cj.Count)
			}
			sum += cj.Count
			if sum > pj.Diverge {
				return nil, bad("%s vs %s: the classes count more than the %d diverging cases", pj.A, pj.B, pj.Diverge)
			}
			c := pa.classes.add(ck)
			*c = classAgg{count: cj.Count, key: witnessKey(cj.Constraint, cj.Version),
				ra: engine.Result{Verdict: cj.A, Reason: cj.AReason}, rb: engine.Result{Verdict: cj.B, Reason: cj.BReason}}
		}
		if bound != nil {
			pa.classes.turnAwayFrom(*bound)
		}
	}
	if len(j.Splits) > lim.Splits {
		return nil, bad("%d splits, more than %d", len(j.Splits), lim.Splits)
	}
	var bound *splitKey
	if j.SplitsFrom != nil {
		v, err := splitVerdictsBytes(j.SplitsFrom.Verdicts, np)
		if err != nil {
			return nil, bad("splits_turned_away_from: %v", err)
		}
		bound = &splitKey{j.SplitsFrom.Shape, v}
	}
	var sum int64
	for _, sj := range j.Splits {
		v, err := splitVerdictsBytes(sj.Verdicts, np)
		if err != nil {
			return nil, bad("split %q: %v", sj.Shape, err)
		}
		sk := splitKey{sj.Shape, v}
		if sj.Count < 1 || sj.Version == "" || a.splits.get(sk) != nil || bound != nil && !sk.less(*bound) {
			return nil, bad("the split %q (%s, %d cases) is empty, given twice or past the splits turned away", sj.Shape, sj.Verdicts, sj.Count)
		}
		sum += sj.Count
		if sum > a.splitCases {
			return nil, bad("the splits count more than the %d split cases", a.splitCases)
		}
		*a.splits.add(sk) = splitAgg{count: sj.Count, key: witnessKey(sj.Constraint, sj.Version)}
	}
	if bound != nil {
		a.splits.turnAwayFrom(*bound)
	}
	if s := j.Selection; s != nil {
		if len(s.Pairs) != len(pairs) || s.Groups < 0 {
			return nil, bad("selection of %d pairs, want %d", len(s.Pairs), len(pairs))
		}
		a.selGroups = s.Groups
		a.selection = make([]selectionAgg, len(pairs))
		for k, sp := range s.Pairs {
			if sp.Agree < 0 || sp.Diverge < 0 || sp.Agree+sp.Diverge != s.Groups || (sp.Diverge > 0) != (sp.Witness != nil) {
				return nil, bad("selection pair %d: %d groups agree and %d diverge of %d, witness %v", k+1, sp.Agree, sp.Diverge, s.Groups, sp.Witness != nil)
			}
			sa := &a.selection[k]
			sa.agree, sa.diverge = sp.Agree, sp.Diverge
			if w := sp.Witness; w != nil {
				ci := newConstraintInfo(w.Constraint)
				sa.witness = &selectionCandidate{
					key: selectionKey{comps: ci.comps, nums: ci.nums, length: len(ci.text), constraint: ci.text, history: w.History},
					a:   w.A, b: w.B, history: w.History,
				}
			}
		}
	}
	p.agg = a
	if j.Verdicts != nil {
		p.verdicts = make([][]byte, np)
		for i, name := range j.Policies {
			enc, ok := j.Verdicts[name]
			if !ok {
				return nil, bad("no verdicts for the policy %s", name)
			}
			v, err := unpackVerdicts(enc, j.Domain.Cases)
			if err != nil {
				return nil, bad("the verdicts of %s: %v", name, err)
			}
			p.verdicts[i] = v
		}
		if len(j.Verdicts) != np {
			return nil, bad("verdicts for %d policies, want %d", len(j.Verdicts), np)
		}
		present := int64(0)
		for i, x := range p.verdicts[0] {
			if x != verdictAbsent {
				present++
			}
			for _, v := range p.verdicts[1:] {
				if (v[i] == verdictAbsent) != (x == verdictAbsent) {
					return nil, bad("the verdicts of case %d are there for some policies only", i)
				}
			}
		}
		if present != a.cases {
			return nil, bad("verdicts for %d cases, the partial report counts %d", present, a.cases)
		}
	}
	return p, nil
}

// witnessKey is the witness order key of a case.
func witnessKey(constraint, version string) caseKey {
	ci := newConstraintInfo(constraint)
	vi := newVersionInfo(version)
	return makeCaseKey(&ci, &vi)
}

// newSizedAggregate is newAggregate with the caps of a partial report.
func newSizedAggregate(pairs, classLimit, splitLimit int) *aggregate {
	a := &aggregate{pairs: make([]pairAgg, pairs), splits: newCapped[splitKey, splitAgg](splitLimit, splitKey.less)}
	for i := range a.pairs {
		a.pairs[i].classes = newCapped[classKey, classAgg](classLimit, classKey.less)
	}
	return a
}

// unpackVerdicts reverses encodeVerdicts for a domain of cases cases,
// with any 2-bit value: a partial report's verdicts may be verdictAbsent.
// It reads no more than the cases need, so that a hostile file cannot make
// it inflate without bound.
func unpackVerdicts(s string, cases int64) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	want := (cases + 3) / 4
	packed, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), want+1))
	if err != nil {
		return nil, err
	}
	if int64(len(packed)) != want {
		return nil, fmt.Errorf("%d bytes of verdicts for %d cases, want %d", len(packed), cases, want)
	}
	out := make([]byte, cases)
	for i := range out {
		out[i] = packed[i/4] >> (2 * (i % 4)) & 3
	}
	return out, nil
}

// comparePartials compares two partial reports' shards, for sorting.
func comparePartials(x, y *Partial) int { return cmp.Compare(x.shards[0], y.shards[0]) }
