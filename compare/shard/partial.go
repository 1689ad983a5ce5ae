package shard

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/internal/jsonpos"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/safefile"
)

// partialVersion is the version of the JSON form of a Partial. It changes
// whenever that form changes, and partial reports of different versions
// are not merged.
const partialVersion = 1

// Partial is the partial report of one or more shards of a run: what
// compare.Run keeps of their cases (a compare.Aggregate: the counts per
// pair, the classes each pair kept with their counts and smallest
// witnesses, the classes the caps turned away, the splits, the selection
// and every verdict by case offset), with what must match for the shards
// to be merged: the whole domain's DomainInfo, the policies in order, the
// options that shape the report (reference, rank, relevance table) and
// the caps. RunPartial makes one, a Merger combines several, and Report
// turns a complete one into the compare.Report of the whole run.
//
// Its JSON form (WriteJSON, ReadPartial) is an object
// with "partial" (its version, 1), "schema" (compare.SchemaVersion),
// "domain", "domain_args", "policies", "fingerprints" (of each policy:
// the SHA-256 of its verdicts on a sample of the exhaustive domain of
// compare.MinScope), "reference", "rank", "relevance", "shards"
// ("of" and the shards it holds, "done"), then the fields of its
// aggregate (its compare.Tally): "limits", "cases", "pairs"
// (counts, kept classes and "turned_away_from", the smallest class key
// the caps turned away), "split_cases", "splits",
// "splits_turned_away_from", "selection" and "verdicts" (per policy,
// packed as in a baseline, 3 marking the cases of other shards). It is
// the same for the same shards, whatever the order they were merged in.
type Partial struct {
	// DomainArgs records how the domain can be made again, for a
	// program that must (prerel compare records its domain flags).
	// RunPartial and Report do not read it; a Merger keeps that of the
	// partial with the first shard. It comes from whoever wrote the
	// partial report: a program should not open a file it names (prerel
	// merge makes only built-in domains from it).
	DomainArgs []string

	source    string // where it was read from, for errors
	info      compare.DomainInfo
	policies  []string
	n         int   // shards in all
	shards    []int // the shards it holds, in order
	reference string
	rank      compare.Rank
	relevance *compare.RelevanceTable
	agg       *compare.Aggregate
	prints    []string  // the fingerprint of each policy
	witnesses []witness // of a partial report read, until a WitnessCheck notes them
}

// Info describes the whole domain of the run, not only the partial's
// shards.
func (p *Partial) Info() compare.DomainInfo { return p.info }

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
func (p *Partial) cases() int64 { return p.agg.Cases() }

// Relevance is the relevance table the run ranks by, or nil.
func (p *Partial) Relevance() *compare.RelevanceTable { return p.relevance }

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

// The JSON form of a Partial: its head, then the fields of its
// aggregate.
type (
	partialJSON struct {
		partialHead
		aggregateJSON
	}
	partialHead struct {
		Partial    int                `json:"partial"`
		Schema     int                `json:"schema"`
		Domain     compare.DomainInfo `json:"domain"`
		DomainArgs []string           `json:"domain_args,omitempty"`
		Policies   []string           `json:"policies"`
		Prints     []string           `json:"fingerprints"`
		Reference  string             `json:"reference"`
		Rank       compare.Rank       `json:"rank"`
		Relevance  *relevanceJSON     `json:"relevance,omitempty"`
		Shards     shardsJSON         `json:"shards"`
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
)

// WriteJSON writes the partial report as one line of JSON, the classes
// and splits of each pair in key order, so that the same shards give the
// same bytes. It is written as it is encoded, not held whole in memory.
func (p *Partial) WriteJSON(w io.Writer) error {
	if w == nil || p == nil {
		return errors.New("compare: writing a partial report needs a writer and a partial report")
	}
	h := partialHead{
		Partial: partialVersion, Schema: compare.SchemaVersion, Domain: p.info, DomainArgs: p.DomainArgs,
		Policies: p.policies, Prints: p.prints, Reference: p.reference, Rank: p.rank,
		Shards: shardsJSON{Of: p.n, Done: p.shards},
	}
	if t := p.relevance; t != nil {
		h.Relevance = &relevanceJSON{Source: t.Source, Total: t.Total(), Shapes: t.Shapes()}
	}
	// The head is small: it is encoded whole, and the aggregate's fields
	// follow it in the same object.
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(h); err != nil {
		return err
	}
	open := bytes.TrimSuffix(bytes.TrimSuffix(head.Bytes(), []byte("\n")), []byte("}"))
	if _, err := w.Write(append(open, ',')); err != nil {
		return err
	}
	if err := writeAggregateFields(w, p.agg); err != nil {
		return err
	}
	_, err := io.WriteString(w, "}\n")
	return err
}

// Hints are the words the errors of reading a partial report use to tell
// what writes partial reports, in the terms of the program that reads
// them. An error says nothing of a hint that is empty.
type Hints struct {
	// Writer names what writes partial reports, as in "not a partial
	// report written by Writer".
	Writer string
	// Write tells how to write partial reports, as in "write partial
	// reports with Write".
	Write string
}

// notPartial is the end of the message for what is not a partial report.
func (h Hints) notPartial() string {
	if h.Writer == "" {
		return "not a partial report"
	}
	return "not a partial report written by " + h.Writer
}

// ReadPartial reads a partial report from path, a regular file or a pipe
// of at most safefile.ReportLimit bytes, as decodePartialFrom does; every
// error names the file, with the line and column of a mistake in its
// JSON, in the words of hints.
func ReadPartial(path string, hints Hints) (*Partial, error) {
	data, err := safefile.ReadNamed(path, safefile.ReportLimit)
	if err != nil {
		return nil, err
	}
	p, err := decodePartial(data, hints)
	if err != nil {
		return nil, jsonpos.InFile(path, err)
	}
	p.source = path
	return p, nil
}

// decodePartialFrom reads a partial report of at most safefile.ReportLimit
// bytes; name is what later errors call it. It fails, naming the line
// and column where it can, on malformed JSON, on unknown fields, on
// anything after the object, on a report that is not a partial one, on
// another partialVersion or compare.SchemaVersion, and on counts,
// classes, splits or verdicts that do not fit together.
func decodePartialFrom(r io.Reader, name string) (*Partial, error) {
	if r == nil {
		return nil, errors.New("decode partial report: no reader")
	}
	data, err := safefile.ReadAll(r, name, safefile.ReportLimit)
	if err != nil {
		return nil, fmt.Errorf("decode partial report: %w", err)
	}
	p, err := decodePartial(data, Hints{})
	if err != nil {
		return nil, jsonpos.InFile(name, err)
	}
	p.source = name
	return p, nil
}

func decodePartial(data []byte, hints Hints) (*Partial, error) {
	at := func(off int64, format string, args ...any) error {
		line, col := jsonpos.LineCol(data, off)
		return &jsonpos.DecodeError{What: "partial report", Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &jsonpos.DecodeError{What: "partial report", Msg: "the file is empty: " + hints.notPartial()}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j partialJSON
	err := dec.Decode(&j)
	if err != nil || j.Partial == 0 {
		if e := notPartialError(data, hints); e != nil {
			return nil, e
		}
	}
	if err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			typ.Field = flatField(typ.Field)
		}
		return nil, jsonpos.Error(err, dec, data, "partial report", at)
	}
	if err := jsonpos.Trailing(dec, data, "partial report", at); err != nil {
		return nil, err
	}
	if j.Partial != partialVersion {
		return nil, &jsonpos.DecodeError{What: "partial report", Msg: fmt.Sprintf("partial report version %d, this prerel merges version %d: run every shard with the same prerel", j.Partial, partialVersion)}
	}
	if j.Schema != compare.SchemaVersion {
		return nil, &jsonpos.DecodeError{What: "partial report", Msg: fmt.Sprintf("schema %d, this prerel reads schema %d", j.Schema, compare.SchemaVersion)}
	}
	p, err := j.partial()
	if err != nil {
		return nil, &jsonpos.DecodeError{What: "partial report", Msg: err.Error()}
	}
	p.witnesses = witnessesOf(&j)
	return p, nil
}

// flatField drops from the path of a field of partialJSON the names of
// the structs it embeds, which encoding/json gives and the JSON form,
// flat, does not have.
func flatField(path string) string {
	for _, embedded := range []string{"partialHead.", "aggregateJSON."} {
		if rest, ok := strings.CutPrefix(path, embedded); ok {
			return rest
		}
	}
	return path
}

// notPartialError tells, with a lenient look at data, a report, a
// baseline or another object from a partial report, for a clearer
// message than an unknown field; it is nil for what may be a partial
// report.
func notPartialError(data []byte, hints Hints) error {
	var probe struct {
		Partial *int            `json:"partial"`
		Schema  *int            `json:"schema"`
		Pairs   json.RawMessage `json:"pairs"`
	}
	if err := json.Unmarshal(data, &probe); err != nil || probe.Partial != nil {
		return nil
	}
	if probe.Schema != nil && probe.Pairs != nil {
		msg := "a report or baseline, not a partial report"
		if hints.Write != "" {
			msg += ": write partial reports with " + hints.Write
		}
		return &jsonpos.DecodeError{What: "partial report", Msg: msg}
	}
	return &jsonpos.DecodeError{What: "partial report", Msg: "no \"partial\" version: " + hints.notPartial()}
}

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
			return nil, bad("the policy %q is empty or given twice", quote(name))
		}
		if len(name) > engine.MaxReason {
			return nil, bad("a policy name of %d bytes", len(name))
		}
		seen[name] = true
	}
	if len(j.Prints) != np || slices.Contains(j.Prints, "") {
		return nil, bad("%d fingerprints for %d policies", len(j.Prints), np)
	}
	for i, print := range j.Prints {
		j.Prints[i] = clip(print)
	}
	if j.Reference == "" || !seen[j.Reference] {
		return nil, bad("the reference %q is not among the policies", clip(j.Reference))
	}
	rank, err := compare.ParseRank(string(j.Rank))
	if err != nil || j.Rank == "" {
		return nil, bad("rank %q", clip(string(j.Rank)))
	}
	// What the report and the errors quote of the domain is clipped as
	// reasons are: a partial report may come from anywhere.
	j.Domain.Name = clip(j.Domain.Name)
	j.Domain.Description = clip(j.Domain.Description)
	j.Domain.Digest = clip(j.Domain.Digest)
	sh := j.Shards
	if sh.Of < 1 || sh.Of > maxShards || len(sh.Done) == 0 || len(sh.Done) > sh.Of {
		return nil, bad("shards %d of %d", len(sh.Done), sh.Of)
	}
	for i, k := range sh.Done {
		if k < 1 || k > sh.Of || i > 0 && k <= sh.Done[i-1] {
			return nil, bad("the shards %v of %d are not in order, each from 1 to %d", sh.Done, sh.Of, sh.Of)
		}
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
	}
	if r := j.Relevance; r != nil {
		shapes := r.Shapes
		sum := 0
		for _, n := range shapes {
			if n < 0 || n > r.Total {
				return nil, bad("relevance counts larger than the total %d", r.Total)
			}
			sum += n
		}
		if sum != r.Total {
			return nil, bad("relevance counts add up to %d, not the total %d", sum, r.Total)
		}
		p.relevance = compare.NewRelevanceCounts(clip(r.Source), shapes)
	}
	a, err := aggregateOf(&j.aggregateJSON, j.Policies, j.Domain.Cases)
	if err != nil {
		// It may quote the file's texts (pairs, shapes) at any length.
		return nil, bad("%s", elide.Middle(printable.String(err.Error()), 4*engine.MaxReason))
	}
	p.agg = a
	return p, nil
}

// clip bounds a text a partial report gives, as reasons are bounded, for
// the report and for messages.
func clip(s string) string { return engine.ClipReason(s) }

// quote is clip for a message: clipped and printable.
func quote(s string) string { return printable.String(clip(s)) }

// comparePartials compares two partial reports' shards, for sorting.
func comparePartials(x, y *Partial) int { return cmp.Compare(x.shards[0], y.shards[0]) }

// sameRelevance reports whether two relevance tables count alike.
func sameRelevance(a, b *compare.RelevanceTable) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Source == b.Source && a.Total() == b.Total() && maps.Equal(a.Shapes(), b.Shapes())
}
