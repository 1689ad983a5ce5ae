package jsonstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// encoderJSON is v as a json.Encoder writes it, HTML escaping off,
// indented when indent is set: what Write must write.
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

// Types that take every path of Write.
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
	// A tag option Write does not follow: encoded whole.
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

// TestStreamJSONAsEncoder checks that Write writes exactly what a
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
				if err := Write(&got, tt.v, indent); err != nil {
					t.Fatal(err)
				}
				if want := encoderJSON(t, tt.v, indent); got.String() != want {
					t.Errorf("Write wrote\n%s\nwant (json.Encoder)\n%s", got.String(), want)
				}
			})
		}
	}
}
