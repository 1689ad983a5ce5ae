package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terraform-linters/tflint-plugin-sdk/helper"
)

// tree writes files (slash-separated names relative to the root module)
// into a temporary directory, makes it the working directory, as tflint's
// is, and returns the SDK's test runner over the root module's own .tf
// files and .tflint.hcl, as tflint hands them to the plugin.
func tree(t *testing.T, files map[string]string) *helper.Runner {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return helper.TestRunner(t, rootOnly(files))
}

// rootOnly returns the files tflint hands the plugin: the root module's
// .tf and .tf.json files, and .tflint.hcl.
func rootOnly(files map[string]string) map[string]string {
	out := map[string]string{}
	for name, src := range files {
		if !strings.Contains(name, "/") && (strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json") || name == ".tflint.hcl") {
			out[name] = src
		}
	}
	return out
}

var fmtSprintf = fmt.Sprintf
