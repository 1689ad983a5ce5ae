package hclpolicy_test

import (
	"testing"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
)

// TestReasons checks that a reason names the operand of admit's && or
// || chain that decided, with the attributes it reads and their values.
func TestReasons(t *testing.T) {
	path := writeFile(t, "p.hcl", `policy "and" {
  admit = satisfies(constraint, version) && version.prerelease_text == ""
}
policy "or" {
  admit = !version.is_prerelease || (constraint.names_prerelease && same_base(constraint.comparators[0].version, version))
}
policy "one" {
  admit = version.major >= 2
}
`)
	ps, diags := hclpolicy.Load(path, hclpolicy.Options{})
	if diags.HasErrors() {
		t.Fatal(diag.Format(diags[0]))
	}
	byName := map[string]*hclpolicy.Policy{}
	for _, p := range ps {
		byName[p.Name()] = p
	}
	for _, tc := range []struct {
		policy, constraint, version string
		want                        engine.Result
	}{
		{"and", ">= 1.0", "1.2.0-beta.1", engine.Rejected(`version.prerelease_text == "" is false (version.prerelease_text is "beta.1")`)},
		{"and", ">= 1.0", "0.9.0", engine.Rejected(`satisfies(constraint, version) is false`)},
		{"and", ">= 1.0", "1.2.0", engine.Allowed(`satisfies(constraint, version) && version.prerelease_text == "" is true (version.prerelease_text is "")`)},
		{"or", ">= 1.0", "1.2.0", engine.Allowed(`!version.is_prerelease is true (version.is_prerelease is false)`)},
		{"or", ">= 1.2.0-beta", "1.2.0-rc", engine.Allowed(`(constraint.names_prerelease && same_base(constraint.comparators[0].version, version)) is true (constraint.names_prerelease is true, constraint.comparators[0].version is version("1.2.0-beta"))`)},
		{"or", ">= 1.2.0", "1.2.0-rc", engine.Rejected(`!version.is_prerelease || (constraint.names_prerelease && same_bas…comparators[0].version, version)) is false (version.is_prerelease is true, constraint.names_prerelease is false, constraint.comparators[0].version is version("1.2.0"))`)},
		{"one", ">= 1.0", "1.2.0", engine.Rejected(`version.major >= 2 is false (version.major is 1)`)},
	} {
		p := byName[tc.policy]
		if got := engine.Evaluate(p, tc.constraint, tc.version); got != tc.want {
			t.Errorf("%s: %q %s:\ngot  %v %s\nwant %v %s", tc.policy, tc.constraint, tc.version, got.Verdict, got.Reason, tc.want.Verdict, tc.want.Reason)
		}
		if got := engine.Explain(p, tc.constraint, tc.version).Result; got != tc.want {
			t.Errorf("%s: %q %s: explain gives %+v", tc.policy, tc.constraint, tc.version, got)
		}
	}
}
