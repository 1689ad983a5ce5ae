package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/compare"
)

// samplePartial is shard 2/3 of a small run with a selection and a
// relevance table: every part of the JSON form.
func samplePartial(t testing.TB) *Partial {
	t.Helper()
	d, err := compare.Corpus(prerel.Corpus(), compare.PairByContext)
	if err != nil {
		t.Fatal(err)
	}
	relevance, err := compare.CorpusRelevance(prerel.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	p, err := RunPartial(context.Background(), limitGroups(d, 400), resolvePolicies(t, "strict", "cargo", "linear"),
		compare.Options{Relevance: relevance}, Shard{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	p.DomainArgs = []string{"--domain", "test"}
	return p
}

// limitGroups is d cut to its first n groups.
func limitGroups(d compare.Domain, n int) compare.Domain {
	var groups []compare.Group
	d.Groups(func(g compare.Group) bool {
		groups = append(groups, g)
		return len(groups) < n
	})
	return sliceDomain{name: "first groups of " + d.Info().Description, groups: groups}
}

// A partial report read back from its JSON writes the same JSON and
// keeps what it holds.
func TestPartialJSONRoundTrip(t *testing.T) {
	p := samplePartial(t)
	first := partialJSONOf(t, p)
	q := roundTrip(t, p, "sample.json")
	sameBytes(t, "the partial report read back", partialJSONOf(t, q), first)
	if q.Info() != p.Info() || strings.Join(q.Policies(), ",") != "strict,cargo,linear" || q.cases() != p.cases() ||
		len(q.heldShards()) != 1 || q.heldShards()[0] != (Shard{2, 3}) || q.Complete() || q.Relevance() == nil ||
		strings.Join(q.DomainArgs, " ") != "--domain test" {
		t.Errorf("read back: info %+v, policies %v, cases %d, shards %v, relevance %v, args %q",
			q.Info(), q.Policies(), q.cases(), q.heldShards(), q.Relevance(), q.DomainArgs)
	}
	if !bytes.Contains(partialJSONOf(t, q), []byte(`"selection":`)) || !q.agg.RecordsVerdicts() {
		t.Error("the sample has no selection or no verdicts: it does not cover the JSON form")
	}
}

// What is not a partial report, or not a whole one, is refused with the
// file's name and, for a mistake in the JSON, its line and column.
func TestReadPartialRefuses(t *testing.T) {
	dir := t.TempDir()
	good := string(partialJSONOf(t, samplePartial(t)))
	r, err := compare.Run(context.Background(), exhaustiveDomain(t, 1), resolvePolicies(t, "strict", "cargo"), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var report bytes.Buffer
	if err := r.WriteJSON(&report); err != nil {
		t.Fatal(err)
	}
	replace := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("the sample has no %q", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "the file is empty: not a partial report written by prerel compare --shard"},
		{"blank", " \n\t\n", "the file is empty"},
		{"a report", report.String(), "a report or baseline, not a partial report: write partial reports with prerel compare --shard K/N --format json"},
		{"a baseline", string(baselineJSON(t, r)), "a report or baseline, not a partial report"},
		{"another object", `{"name": "x"}`, `no "partial" version: not a partial report`},
		{"truncated", good[:len(good)/2], "the file ends in the middle of the partial report"},
		{"truncated early", good[:40], "the file ends in the middle of the partial report"},
		{"data after it", good + "{}\n", ":2:1: data after the end of the partial report"},
		{"malformed", `{"partial": 1,,}`, ":1:15: malformed JSON"},
		{"an unknown field", replace(`"partial":1,`, `"partial":1,"extra":2,`), `unknown field "extra"`},
		{"another version", replace(`"partial":1,`, `"partial":2,`), "partial report version 2, this prerel merges version 1"},
		{"another schema", replace(`"schema":1,`, `"schema":9,`), "schema 9, this prerel reads schema 1"},
		{"a string for a number", replace(`"partial":1,`, `"partial":"1",`), `"partial" is a JSON string, expected int`},
		{"a verdict that is none", replace(`"a_verdict":"reject"`, `"a_verdict":"maybe"`), `unknown verdict "maybe"`},
		{"shards out of range", replace(`"done":[2]`, `"done":[4]`), "the shards [4] of 3 are not in order"},
		{"shards of none", replace(`"of":3`, `"of":0`), "shards 1 of 0"},
		{"counts that do not add up", replace(`"agree":`, `"agree":1`), "agree on 1"},
		{"split verdicts", replace(`"verdicts":"`, `"verdicts":"x`), "letters for 3 policies"},
		{"no policies", replace(`"policies":["strict","cargo","linear"]`, `"policies":[]`), "0 policies"},
		{"a policy twice", replace(`"policies":["strict","cargo","linear"]`, `"policies":["strict","cargo","cargo"]`), `the policy "cargo" is empty or given twice`},
		{"a reference not compared", replace(`"reference":"strict"`, `"reference":"other"`), `the reference "other" is not among the policies`},
		{"no domain", replace(`"cases":`, `"cases":0,"x":`), "unknown field"},
		{"bad verdicts", replace(`"verdicts":{"cargo":"`, `"verdicts":{"cargo":"AAAA`), "the verdicts of cargo"},
		{"limits", replace(`"classes_per_pair":`, `"classes_per_pair":-`), "limits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadPartial(path, cliHints)
			if err == nil {
				t.Fatal("read")
			}
			if !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\nwant it to start with %s and hold %q", err, path, tt.want)
			}
		})
	}
	for _, path := range []string{dir, filepath.Join(dir, "missing.json")} {
		if _, err := ReadPartial(path, cliHints); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("ReadPartial(%s): %v, want an error naming it", path, err)
		}
	}
}

// FuzzDecodePartial checks that no input makes decoding, merging or
// building a report panic, and that what decodes writes itself back.
func FuzzDecodePartial(f *testing.F) {
	d := exhaustiveDomain(f, 1)
	ps := resolvePolicies(f, "strict", "cargo")
	small := limitGroups(d, 30)
	for k := 1; k <= 2; k++ {
		p, err := RunPartial(context.Background(), small, ps, compare.Options{}, Shard{k, 2})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(partialJSONOf(f, p))
	}
	f.Add([]byte(`{"partial":1,"schema":1}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodePartialFrom(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			return
		}
		again := roundTrip(t, p, "again.json")
		if !bytes.Equal(partialJSONOf(t, again), partialJSONOf(t, p)) {
			t.Error("a partial report read back writes other JSON")
		}
		if m, err := mergePartials(p, again); err == nil {
			t.Errorf("a partial report merged with itself: shards %v", m.heldShards())
		}
		p.Report(context.Background(), ps)
	})
}

// cliHints are the words prerel's command line gives the errors of
// reading a partial report.
var cliHints = Hints{Writer: "prerel compare --shard", Write: "prerel compare --shard K/N --format json"}

// FuzzReadPartial checks that no file makes ReadPartial panic, that every
// error names the file and stays short whatever the file holds, and that
// what it reads writes itself back. Its corpus (testdata/fuzz) holds
// partial reports good and hostile: forged witnesses, long texts, domain
// flags that name other files.
func FuzzReadPartial(f *testing.F) {
	f.Add([]byte(`{"partial":1,"schema":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "shard.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ReadPartial(path, cliHints)
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, path) || len(msg) > len(path)+8<<10 {
				t.Errorf("error of %d bytes, naming the file: %v: %.300s", len(msg), strings.Contains(msg, path), msg)
			}
			return
		}
		again := roundTrip(t, p, "again.json")
		if !bytes.Equal(partialJSONOf(t, again), partialJSONOf(t, p)) {
			t.Error("a partial report read back writes other JSON")
		}
		if len(p.Info().Description) > 8<<10 {
			t.Errorf("a description of %d bytes is kept", len(p.Info().Description))
		}
	})
}

// What ReadPartial quotes of a partial report in its errors is clipped,
// however long the text in the file.
func TestReadPartialClipsWhatItQuotes(t *testing.T) {
	good := partialJSONOf(t, samplePartial(t))
	long := strings.Repeat("x", 1<<20)
	dir := t.TempDir()
	for i, edit := range []func(map[string]any){
		func(o map[string]any) { o["pairs"].([]any)[0].(map[string]any)["a"] = long },
		func(o map[string]any) {
			o["pairs"].([]any)[0].(map[string]any)["classes"].([]any)[0].(map[string]any)["shape"] = long
		},
		func(o map[string]any) { o["splits"].([]any)[0].(map[string]any)["shape"] = long },
		func(o map[string]any) { o["reference"] = long },
		func(o map[string]any) { o["policies"].([]any)[0] = long },
	} {
		var o map[string]any
		if err := json.Unmarshal(good, &o); err != nil {
			t.Fatal(err)
		}
		edit(o)
		data, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = ReadPartial(path, cliHints)
		if err == nil || len(err.Error()) > 8<<10 {
			t.Errorf("edit %d: an error of %d bytes: %.300v", i, len(fmt.Sprint(err)), err)
		}
	}
}
