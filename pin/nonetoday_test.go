package pin_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/pin"
)

// TestNoneToday plans the example of docs/install-today.md (hashicorp/terraform#36985:
// ">= 2.0.0-beta.1" with 1.0.0 and 2.0.0-beta.1 published, cargo chosen
// for that call): the pin says why today's installer selects no version.
func TestNoneToday(t *testing.T) {
	_, _, p := plan(t, filepath.Join("..", "testdata", "pin"))
	if len(p.Pins) != 1 || p.Pins[0].Why != `">= 2.0.0-beta.1" names a prerelease; today only "=" selects one` {
		t.Fatalf("pins = %+v", p.Pins)
	}
	for _, f := range []struct {
		format pin.Format
		ext    string
	}{{pin.Text, "txt"}, {pin.Markdown, "md"}} {
		var b bytes.Buffer
		if err := pin.Render(&b, f.format, p, pin.RenderOptions{Contents: true}); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "golden", "none-today."+f.ext), b.Bytes())
	}
}
