package moduleconfig_test

import (
	"testing"

	"github.com/prerel/prerel/policies/moduleconfig"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		good,
		"default_policy = \"nope\"\n",
		"module \"a\" {\n  policy = \n}\n",
		"provider \"a/b/c/d\" { policy = \"strict\" }\n",
		"module {",
		"",
	} {
		f.Add([]byte(s))
	}
	reg := testRegistry(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := moduleconfig.Parse(reg, data, "prerel.hcl")
		if (cfg == nil) == (err == nil) {
			t.Fatalf("config %v and error %v", cfg, err)
		}
		if err == nil {
			_ = cfg.Module("x").Policy.Name()
			_ = cfg.CheckTargets(nil, nil)
		}
	})
}
