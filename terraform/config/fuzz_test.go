package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/prerel/prerel/internal/diag"
)

func FuzzParseLockFile(f *testing.F) {
	for _, s := range []string{
		"provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"1.0.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\"h1:x\"]\n}\n",
		"provider \"a\" {",
		"module \"x\" {}",
		"provider \"a\" { version = [1] }",
		"provider \"registry.terraform.io/a/b\" {\n  version = \"1.0.0\"\n  A = []\n}\n",
		"provider \"REG.EXAMPLE/a/b\" { version = \"1.0.0\" }\nprovider \"reg.example/a/b\" { version = \"1.0.0\" }\n",
		"provider \"registry.terraform.io/a/b\" { version = [[[[\"1\"]]]] }",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		locked, diags := ParseLockFile(data, "lock")
		if diags.HasErrors() && len(locked) > 0 {
			t.Fatalf("providers returned with errors: %v", diags)
		}
		for _, d := range diags {
			_ = diag.Format(d)
		}
	})
}

func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{
		`{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"eks","Source":"registry.terraform.io/terraform-aws-modules/eks/aws","Version":"21.15.1","Dir":".terraform/modules/eks"}]}`,
		`{"Modules":[{"Key":"a"},{"Key":"a"}]}`,
		`{"Modules":{}}`,
		`{"modules":[{"key":1,"version":"x"}]}`,
		`{"Modules":[[[[{"Key":"${a}"}]]]]}`,
		`[`,
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, diags := ParseManifest(data, "modules.json")
		if m == nil {
			t.Fatal("nil manifest")
		}
		for key, r := range m {
			if r == nil || r.Key != key {
				t.Fatalf("record %q: %+v", key, r)
			}
		}
		for _, d := range diags {
			_ = diag.Format(d)
		}
	})
}

func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"module \"a\" {\n  source = \"a/b/c\"\n  version = \"1.0\"\n}\n",
		"terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\", version = var.v }\n    x = \"1.0\"\n  }\n}\n",
		"module \"a\" {}\nmodule \"a\" {}\n",
		"resource \"aws_x\" \"y\" { provider = aws.west }\n",
		"terraform { required_providers { x = 5 } }",
		"locals {\n  x = [[((!!a ? b : -c[d][*].e))]]\n  y = \"${a}%{if b}c%{endif}\"\n}\n",
		"module \"m\" {\n",
		"{",
		"variable \"v\" {\n  const = true\n  default = \"1\"\n}\nlocals {\n  a = \"${local.b}${var.v}\"\n  b = format(\"%s%s\", local.a, var.v)\n  c = upper(var.v)\n}\nmodule \"m\" {\n  source  = \"a/b/c\"\n  version = local.c\n}\nmodule \"n\" {\n  source  = \"a/b/d\"\n  version = local.a\n}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := Load(dir)
		if m == nil {
			t.Fatal("nil module")
		}
		for _, d := range diags {
			_ = diag.Format(d)
		}
	})
}
