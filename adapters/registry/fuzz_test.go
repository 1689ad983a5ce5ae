package registry

import (
	"errors"
	"testing"
)

func FuzzParseIndex(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"modules": {"a/b/c": {"modules": [{"versions": [{"version": "1.0.0"}]}]}}}`,
		`{"providers": {"hashicorp/aws": {"versions": [{"version": "1.0.0"}], "warnings": ["w"]}}}`,
		`{"modules": {"a/b/c": {"modules": [{"versions": [`,
		`[1, 2]`,
		"{\"modules\": {\"./x\": {}}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := ParseIndex(data, "index.json")
		if err == nil && x == nil {
			t.Fatal("nil index without an error")
		}
		DecodeModuleVersions(data)
		DecodeProviderVersions(data)
	})
}

func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"a/b/c", "h.io/a/b/c//d", "./x", "git::https://x", "github.com/a/b", "a/b", "", "a//b", "::", "a/b/c/d/e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseModuleSource(s)
		var nr *NotRegistryError
		if err != nil && !errors.As(err, &nr) {
			t.Fatalf("ParseModuleSource(%q): error of type %T", s, err)
		}
		if err == nil {
			if m2, err := ParseModuleSource(m.Key()); err != nil || m2.Key() != m.Key() {
				t.Fatalf("ParseModuleSource(%q).Key() = %q does not read back: %v", s, m.Key(), err)
			}
		}
		if p, err := ParseProviderSource(s); err == nil {
			if p2, err := ParseProviderSource(p.Key()); err != nil || p2 != p {
				t.Fatalf("ParseProviderSource(%q).Key() = %q does not read back: %v", s, p.Key(), err)
			}
		}
	})
}
