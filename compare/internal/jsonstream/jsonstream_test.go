package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/internal/longtest"
)

// encoderJSON is v as a json.Encoder writes it, HTML escaping off,
// indented when indent is set: what streamJSON must write.
func encoderJSON(t *testing.T, v any, indent bool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// Types that take every path of streamJSON.
type (
	streamLeaf struct {
		S string  `json:"s"`
		N float64 `json:"n,omitempty"`
	}
	streamInner struct {
		Items []streamLeaf `json:"items"`
		Names []string     `json:"names,omitempty"`
		Leaf  *streamLeaf  `json:"leaf,omitempty"`
	}
	streamOuter struct {
		Schema   int                 `json:"schema"`
		Untagged string              // the field name is the key
		Skipped  string              `json:"-"`
		Dash     string              `json:"-,"` // the key is "-"
		Empty    []streamLeaf        `json:"empty"`
		Nil      []streamLeaf        `json:"nil"`
		Omitted  []streamLeaf        `json:"omitted,omitempty"`
		Zero     int64               `json:"zero,omitempty"`
		Bool     bool                `json:"bool,omitempty"`
		Inner    streamInner         `json:"inner"`
		InnerPtr *streamInner        `json:"inner_ptr"`
		NilPtr   *streamInner        `json:"nil_ptr"`
		Nested   [][]streamLeaf      `json:"nested"`
		Bytes    []byte              `json:"bytes"`
		Map      map[string][]string `json:"map,omitempty"`
		Any      any                 `json:"any"`
		Own      ownJSONSlice        `json:"own"`
		Stringed streamStringOpt     `json:"stringed"`
		Embeds   streamEmbeds        `json:"embeds"`
		Verdicts []string            `json:"verdicts,omitempty"`
		hidden   []string
	}
	// ownJSONSlice writes its own JSON form, which must be kept.
	ownJSONSlice []string
	// A tag option streamJSON does not follow: encoded whole.
	streamStringOpt struct {
		N     int64    `json:"n,string"`
		Items []string `json:"items"`
	}
	// An embedded struct: encoded whole.
	streamEmbeds struct {
		streamLeaf
		Items []string `json:"items"`
	}
)

func (s ownJSONSlice) MarshalJSON() ([]byte, error) {
	return json.Marshal(strings.Join(s, "+"))
}

// TestStreamJSONAsEncoder checks that streamJSON writes exactly what a
// json.Encoder writes, indented and not, on values that take each of its
// paths: keys from tags and field names, skipped and omitted fields, nil
// and empty slices, pointers, nested slices, bytes, maps, interfaces,
// types with their own JSON form, tag options and embedded fields it
// leaves to the encoder, text that needs escaping.
func TestStreamJSONAsEncoder(t *testing.T) {
	leaves := []streamLeaf{{S: "<a & b>", N: 1.5}, {S: "\xff\u2028\"quoted\"\n"}, {}}
	full := streamOuter{
		Schema: 1, Untagged: "u", Skipped: "never", Dash: "dash",
		Empty: []streamLeaf{}, Omitted: nil,
		Inner:    streamInner{Items: leaves, Names: []string{"x"}, Leaf: &leaves[0]},
		InnerPtr: &streamInner{Items: []streamLeaf{}},
		Nested:   [][]streamLeaf{leaves, {}, nil},
		Bytes:    []byte("raw"),
		Map:      map[string][]string{"b": {"2"}, "a": {"1", "<"}},
		Any:      []streamLeaf{{S: "in an interface"}},
		Own:      ownJSONSlice{"o", "p"},
		Stringed: streamStringOpt{N: 7, Items: []string{"s"}},
		Embeds:   streamEmbeds{streamLeaf{S: "e"}, []string{"i"}},
		Verdicts: []string{"allow", "reject"},
		hidden:   []string{"h"},
	}
	values := []struct {
		name string
		v    any
	}{
		{"every path", full},
		{"a pointer to it", &full},
		{"zero", streamOuter{}},
		{"a slice", leaves},
		{"an empty struct", struct{}{}},
		{"nil", nil},
		{"a string", "<&>"},
	}
	for _, tt := range values {
		for _, indent := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, indent %v", tt.name, indent), func(t *testing.T) {
				var got bytes.Buffer
				if err := streamJSON(&got, tt.v, indent); err != nil {
					t.Fatal(err)
				}
				if want := encoderJSON(t, tt.v, indent); got.String() != want {
					t.Errorf("streamJSON wrote\n%s\nwant (json.Encoder)\n%s", got.String(), want)
				}
			})
		}
	}
}

// TestStreamJSONAggregateAsEncoder checks the JSON fields of an
// aggregate, written a pair and a class at a time, against json.Encoder.
func TestStreamJSONAggregateAsEncoder(t *testing.T) {
	longtest.SkipShort(t)
	d, err := Exhaustive(1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := RunGroups(context.Background(), d, catalogue.New().All(), Options{}, func(int64) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	j, err := a.toJSON()
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	got.WriteByte('{')
	if err := a.WriteJSONFields(&got); err != nil {
		t.Fatal(err)
	}
	got.WriteString("}\n")
	if want := encoderJSON(t, j, false); got.String() != want {
		t.Fatalf("WriteJSONFields wrote %d bytes that differ from json.Encoder's %d", got.Len(), len(want))
	}
}

// writeSizes records the size of each write.
type writeSizes struct{ sizes []int }

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return len(p), nil
}

// TestStreamJSONWritesAsItGoes checks that a report much larger than
// streamJSON's buffer reaches the writer in pieces no larger than the
// buffer, not whole: what the output holds at a time is bounded.
func TestStreamJSONWritesAsItGoes(t *testing.T) {
	r := &Report{Pairs: []Pair{}, Classes: make([]Class, 20000)}
	for i := range r.Classes {
		r.Classes[i] = Class{A: "a", B: "b", Signature: fmt.Sprint(i), Count: int64(i),
			Witness: Witness{Constraint: ">= 1.0", Version: "1.0.0", AReason: strings.Repeat("r", 40)}}
	}
	var w writeSizes
	if err := r.WriteJSON(&w); err != nil {
		t.Fatal(err)
	}
	total, largest := 0, 0
	for _, n := range w.sizes {
		total += n
		largest = max(largest, n)
	}
	if total < 4<<20 || largest > 64<<10 {
		t.Errorf("%d bytes in %d writes, the largest %d: want over 4 MiB in writes of at most 64 KiB", total, len(w.sizes), largest)
	}
}
