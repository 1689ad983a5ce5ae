package registry

import (
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
