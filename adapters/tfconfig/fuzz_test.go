package tfconfig

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzParseLockFile(f *testing.F) {
	for _, s := range []string{
		"provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"1.0.0\"\n  constraints = \"~> 1.0\"\n  hashes = [\"h1:x\"]\n}\n",
		"provider \"a\" {",
		"module \"x\" {}",
		"provider \"a\" { version = [1] }",
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
			_ = d.String()
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
		"{",
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
		_ = diags.Error()
	})
}
