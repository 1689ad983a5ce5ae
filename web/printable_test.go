package web

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/printable"
)

// TestPagePrintable runs the page's printable (app.js) in Node.js and
// checks that it escapes as internal/printable does, so that a version
// such as 1.0.0-\u202eevil reads on the page as prerel check prints it.
// It skips without node on PATH.
func TestPagePrintable(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH to run app.js's printable")
	}
	app, err := fs.ReadFile(Static(), "app.js")
	if err != nil {
		t.Fatal(err)
	}
	text := string(app)
	begin, end := strings.Index(text, "// printable: begin"), strings.Index(text, "// printable: end")
	if begin < 0 || end < begin {
		t.Fatal("app.js has no printable between its markers")
	}
	inputs := []string{
		"1.0.0", "1.0.0-\u202eevil", "~> 1.2, >= 1.2.3-beta", `C:\path`, "bücher.example",
		"\x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m", "line\nbreak\r\ttab\a\b\f\v", "\x7f\u0085\u009f", "abc\u202egnp.exe",
		"\u200b\u200d\u2066\u2069\ufeff\u2028\u2029\u061c\u00ad", "\U000e0001\U0001d173", "😀 ok", "\x00",
	}
	in, _ := json.Marshal(inputs)
	script := text[begin:end] + "\nprocess.stdout.write(JSON.stringify(" + string(in) + ".map((s) => printable(s))));\n"
	path := filepath.Join(t.TempDir(), "printable.js")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, path).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(inputs) {
		t.Fatalf("node printed %q: %v", out, err)
	}
	for i, s := range inputs {
		if want := printable.String(s); got[i] != want {
			t.Errorf("printable(%q) = %q in the page, %q in prerel", s, got[i], want)
		}
	}
}
