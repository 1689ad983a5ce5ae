package credentials

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/diag"
)

// tokenLiteral finds the text of a token in either syntax.
var tokenLiteral = regexp.MustCompile(`"?token"?\s*[=:]\s*"([^"\\\n]{6,})"`)

// checkParse parses src as a CLI configuration file and checks what holds
// for every input: no panic, tokens only for valid hosts, diagnostics in
// the file with a place that exists, and no diagnostic quoting a token.
func checkParse(t *testing.T, src []byte) {
	fc, diags := parseConfig("f", src)
	for h, tok := range fc.hosts {
		if n, err := normalize(string(h)); err != nil || n != h {
			t.Errorf("host %q is not in the form hosts are compared in", h)
		}
		if tok.ok && tok.token == "" {
			t.Errorf("host %q has an empty token marked usable", h)
		}
	}
	if len(diags) > 0 && len(fc.hosts) > 0 && diags.HasErrors() && !onlyHostErrors(diags) {
		t.Errorf("a file with an error gave credentials: %q", formatAll(diags, ""))
	}
	lines := strings.Count(string(src), "\n") + 1
	for _, d := range diags {
		if d.Subject == nil || d.Subject.Filename != "f" {
			t.Errorf("diagnostic without the file: %s", diag.Format(d))
			continue
		}
		if d.Subject.Start.Line > lines {
			t.Errorf("diagnostic past the end of the file (%d lines): %s", lines, diag.Format(d))
		}
	}
	for _, m := range tokenLiteral.FindAllSubmatch(src, -1) {
		tok := string(m[1])
		if strings.Count(string(src), tok) > 1 {
			continue // the same text is also something else, such as a host
		}
		for _, d := range diags {
			if s := diag.Format(d); strings.Contains(s, tok) {
				t.Errorf("diagnostic quotes the token %q: %s", tok, s)
			}
		}
	}
}

// onlyHostErrors reports whether every error is about a host name, which
// leaves the file's other hosts usable.
func onlyHostErrors(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary != invalidBlock {
			return false
		}
	}
	return true
}

// FuzzCLIConfig parses CLI configuration files in HCL syntax; its seeds
// are in testdata/fuzz/FuzzCLIConfig.
func FuzzCLIConfig(f *testing.F) {
	f.Fuzz(checkParse)
}

// FuzzCredentialsJSON parses credentials.tfrc.json and other files in
// JSON syntax; its seeds are in testdata/fuzz/FuzzCredentialsJSON.
func FuzzCredentialsJSON(f *testing.F) {
	f.Fuzz(checkParse)
}
