package policyconfig_test

import (
	"testing"

	"github.com/prerel/prerel/resolve/policyconfig"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		good,
		"default_policy = \"nope\"\n",
		"module \"a\" {\n  policy = \n}\n",
		"provider \"a/b/c/d\" { policy = \"strict\" }\n",
		"module {",
		"default_policy = 5\n",
		"provider \"bad host!/ns/thing\" { policy = \"strict\" }\n",
		"default_policy = [[[[\"strict\"]]]]\n",
		"",
	} {
		f.Add([]byte(s))
	}
	reg := testRegistry(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, diags := policyconfig.Parse(reg, data, "prerel.hcl")
		if (cfg == nil) != diags.HasErrors() {
			t.Fatalf("config %v and diagnostics %v", cfg, diags)
		}
		if cfg != nil {
			_ = cfg.Module("x").Policy.Name()
			_ = cfg.CheckTargets(nil, nil, nil)
		}
	})
}
