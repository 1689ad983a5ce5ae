package registry

import (
	"bytes"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/printable"
)

func FuzzParseIndex(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"modules": {"a/b/c": {"modules": [{"versions": [{"version": "1.0.0"}]}]}}}`,
		`{"providers": {"hashicorp/aws": {"versions": [{"version": "1.0.0"}], "warnings": ["w"]}}}`,
		`{"modules": {"a/b/c": {"modules": [{"versions": [`,
		`[1, 2]`,
		"{\"modules\": {\"./x\": {}}}",
		"\xef\xbb\xbf{\"modules\": {}}",
		`{"modules": {"reg.example/ns/name/aws": []}}`,
		`{"providers": {"hashicorp/aws": {"versions": [], "warnings": "w"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := ParseIndex(data, "index.json")
		if err == nil && x == nil {
			t.Fatal("nil index without an error")
		}
		if err != nil {
			msg := err.Error()
			if !printable.Safe(msg) {
				t.Fatalf("error with control characters: %q", msg)
			}
			if !bytes.Contains(data, []byte("Body")) && !bytes.Contains(data, []byte("versionItem")) &&
				(strings.Contains(msg, "Body") || strings.Contains(msg, "versionItem")) {
				t.Fatalf("error names a Go type: %s", msg)
			}
		}
		DecodeModuleVersions(data)
		DecodeProviderVersions(data)
	})
}
