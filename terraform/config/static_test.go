package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStaticVersion(t *testing.T) {
	m, diags := Load("testdata/static")
	for _, d := range diags {
		if d.Severity == 1 { // hcl.DiagError
			t.Errorf("diagnostic: %v", d)
		}
	}
	calls := map[string]*ModuleCall{}
	for _, c := range m.ModuleCalls {
		calls[c.Name] = c
	}
	tests := []struct {
		call    string
		version string // the value, or the expression's text when not static
		from    string // the references, "NAME@FILE:LINE" joined by ", "
		reason  string // "" when static
	}{
		{call: "literal", version: "1.2.3"},
		{call: "var_const", version: "~> 5.1", from: "var.vpc_version@variables.tf:1 const"},
		{call: "local_from_var", version: "~> 5.1", from: "local.eks_version@locals.tf:2 const"},
		{call: "local_from_local", version: "= 6.2.0", from: "local.pinned@locals.tf:3"},
		{call: "function", version: "~> 6.0", from: "var.major@variables.tf:7"},
		{call: "cycle", version: "local.ping", from: "local.ping@locals.tf:5",
			reason: "the locals refer to each other in a cycle: local.ping → local.pong → local.ping"},
		{call: "self", version: "local.self", from: "local.self@locals.tf:8",
			reason: "the locals refer to each other in a cycle: local.self → local.self"},
		{call: "no_default", version: "local.by_region", from: "local.by_region@locals.tf:7",
			reason: "local.by_region: var.region has no default value (values given to init with -var or in .tfvars files are not read)"},
		{call: "resource", version: "local.id", from: "local.id@locals.tf:10",
			reason: "local.id: it refers to aws_instance.x.id, which is not known before init"},
		{call: "path", version: `"${path.module}/x"`,
			reason: "it refers to path.module, which is not known before init"},
		{call: "undeclared", version: "var.nope", reason: "var.nope is not declared"},
		{call: "not_string", version: "var.big", from: "var.big@variables.tf:16",
			reason: "the value is a tuple, not a string"},
		{call: "for", version: "local.listed[0]", from: "local.listed@locals.tf:9",
			reason: "local.listed: it holds a for expression, which prerel does not evaluate before init"},
		{call: "wide", version: `format("%0999999s", var.major)`, from: "var.major@variables.tf:7",
			reason: "Invalid function argument: Invalid value for \"format\" parameter: a width or precision of more than three digits."},
		{call: "unknown_function", version: `file("${var.major}.txt")`, from: "var.major@variables.tf:7",
			reason: "Call to unknown function: There is no function named \"file\"."},
	}
	for _, tt := range tests {
		t.Run(tt.call, func(t *testing.T) {
			c := calls[tt.call]
			if c == nil {
				t.Fatalf("no module call %q", tt.call)
			}
			var from []string
			for _, r := range c.VersionFrom {
				s := fmt.Sprintf("%s@%s:%d", r.Name, filepath.Base(r.Pos.Filename), r.Pos.Start.Line)
				if r.Const {
					s += " const"
				}
				from = append(from, s)
			}
			if c.Version != tt.version || strings.Join(from, ", ") != tt.from || c.VersionNotStatic != tt.reason || c.VersionExpr != (tt.reason != "") {
				t.Errorf("version %q from %q expr=%v reason %q\nwant    %q from %q reason %q",
					c.Version, strings.Join(from, ", "), c.VersionExpr, c.VersionNotStatic, tt.version, tt.from, tt.reason)
			}
			if c.VersionText == "" && tt.call != "literal" {
				t.Errorf("VersionText is empty")
			}
		})
	}
}

// TestStaticVersionBounds checks that locals that double in size at each
// step, and a long chain of locals, end with a reason at once.
func TestStaticVersionBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n  d0 = \"0123456789\"\n  c0 = \"1.0.0\"\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "  c%d = local.c%d\n", i, i-1)
	}
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "  d%d = \"${local.d%d}${local.d%d}\"\n", i, i-1, i-1)
	}
	b.WriteString("}\n")
	b.WriteString("module \"doubled\" {\n  source  = \"a/b/c\"\n  version = local.d20\n}\n")
	b.WriteString("module \"chain\" {\n  source  = \"a/b/c\"\n  version = local.c60\n}\n")
	b.WriteString("module \"short\" {\n  source  = \"a/b/c\"\n  version = local.c20\n}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := Load(dir)
	got := map[string]string{}
	for _, c := range m.ModuleCalls {
		got[c.Name] = c.Version + " | " + c.VersionNotStatic
	}
	want := map[string]string{
		"doubled": "local.d20 | local.d9: the value is larger than 4096 bytes",
		"chain":   "local.c60 | local.c28 lies more than 32 locals deep",
		"short":   "1.0.0 | ",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
}
