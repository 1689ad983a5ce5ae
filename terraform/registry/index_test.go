package registry

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/internal/safefile"
)

// bigIndex returns an index with n module keys, one per line.
func bigIndex(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n\"modules\": {\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `"ns%d/name/aws": {"modules": [{"versions": [{"version": "1.0.%d"}]}]}`, i, i)
	}
	b.WriteString("\n}\n}\n")
	return []byte(b.String())
}

// TestParseIndexCountsLinesOnce parses an index with 2,000 keys (100,000
// in the long run) and checks that line numbers cost one pass over the
// file, not one per key: a count started again for each key scans a
// thousand times the file's length.
func TestParseIndexCountsLinesOnce(t *testing.T) {
	longtest.SkipShort(t)
	for _, n := range []int{longtest.Pick(2000, 100000)} {
		data := bigIndex(n)
		var lines lineCounter
		x, err := parseIndex(data, "big.json", &lines)
		if err != nil {
			t.Fatal(err)
		}
		if lines.scanned > int64(len(data)) {
			t.Errorf("%d keys: %d bytes scanned for line numbers in a %d-byte index", n, lines.scanned, len(data))
		}
		last := tfaddr.MustParseModuleSource(fmt.Sprintf("ns%d/name/aws", n-1)).Package
		l, err := x.ModuleVersions(context.Background(), last)
		if want := fmt.Sprintf("big.json:%d", n+2); err != nil || l.From != want {
			t.Errorf("last key: %+v, %v; want From %s", l, err, want)
		}
	}
}

func BenchmarkParseIndex100k(b *testing.B) {
	data := bigIndex(100000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseIndex(data, "big.json"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLineCounter(t *testing.T) {
	data := []byte("ab\ncd\n\nef")
	lc := lineCounter{data: data}
	for _, tt := range []struct {
		off       int64
		line, col int
	}{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {6, 3, 1}, {7, 4, 1}, {9, 4, 3}, {99, 4, 3},
		{4, 2, 2}, // backwards: counted again from the start
		{-1, 1, 1},
	} {
		line, col := lc.at(tt.off)
		if line != tt.line || col != tt.col {
			t.Errorf("at(%d) = %d:%d, want %d:%d", tt.off, line, col, tt.line, tt.col)
		}
		if l2, c2 := lineCol(data, tt.off); l2 != line || c2 != col {
			t.Errorf("lineCol(%d) = %d:%d, the counter %d:%d", tt.off, l2, c2, line, col)
		}
	}
}

func TestIndexErrorsInPlainWords(t *testing.T) {
	tests := []struct{ src, want string }{
		{`{"modules": {"reg.example/ns/name/aws": []}}`, `the value is a JSON array, expected an object`},
		{`{"modules": {"a/b/c": {"modules": {}}}}`, `"modules" is a JSON object, expected an array of objects`},
		{`{"modules": {"a/b/c": {"modules": [{"versions": [{"version": 1}]}]}}}`, `is a JSON number, expected a string`},
		{`{"providers": {"hashicorp/aws": {"versions": [], "warnings": "w"}}}`, `"warnings" is a JSON string, expected an array of strings`},
		{`{"providers": {"hashicorp/aws": "x"}}`, `the value is a JSON string, expected an object`},
		{`{"modules": {"\u001b[31mred/b/c": {}}}`, `\x1b[31mred`},
	}
	for _, tt := range tests {
		_, err := ParseIndex([]byte(tt.src), "index.json")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseIndex(%q) error = %v, want %q", tt.src, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), "registry.") || strings.Contains(err.Error(), "Body") || strings.Contains(err.Error(), "struct") ||
			strings.ContainsRune(err.Error(), '\x1b') {
			t.Errorf("ParseIndex(%q) error = %v names a Go type or holds a control character", tt.src, err)
		}
	}
	if _, err := ParseIndex([]byte(`[]`), "in\x1bdex.json"); err == nil || strings.ContainsRune(err.Error(), '\x1b') {
		t.Errorf("file name not escaped: %v", err)
	}
}

func TestIndexAcceptsAByteOrderMark(t *testing.T) {
	src := "\xef\xbb\xbf{\n \"modules\": {\n  \"a/b/c\": {\"modules\": [{\"versions\": [{\"version\": \"1.0.0\"}]}]}\n }\n}\n"
	x, err := ParseIndex([]byte(src), "bom.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := x.ModuleVersions(context.Background(), tfaddr.MustParseModuleSource("a/b/c").Package)
	if err != nil || l.From != "bom.json:3" || len(l.Versions) != 1 {
		t.Errorf("%+v, %v", l, err)
	}
	_, err = ParseIndex([]byte("\xef\xbb\xbf[]"), "bom.json")
	if err == nil || !strings.Contains(err.Error(), "bom.json:1:1: expected an object") {
		t.Errorf("error after a byte order mark = %v", err)
	}
	if vs, err := DecodeModuleVersions([]byte("\xef\xbb\xbf" + modulesBody)); err != nil || len(vs) != 4 {
		t.Errorf("body with a byte order mark: %q, %v", vs, err)
	}
}

func TestLoadIndexRefusesDevicesAndDoesNotHangOnFIFOs(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := LoadIndex("/dev/zero")
		if !safefile.IsNotRegular(err) {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	fifo := filepath.Join(t.TempDir(), "index.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	// A FIFO no program opens for writing is waited for, then refused:
	// the wait runs out whatever the machine's speed, so a short one
	// keeps the test fast.
	defer func(w time.Duration) { safefile.WriterWait = w }(safefile.WriterWait)
	safefile.WriterWait = 50 * time.Millisecond
	done := make(chan error, 1)
	go func() { _, err := LoadIndex(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "no program opened for writing") && !strings.Contains(err.Error(), "unexpected end of file") {
			t.Errorf("FIFO nobody writes to: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("LoadIndex blocked on a FIFO")
	}
}

// An error about an index quotes its keys clipped, however long.
func TestParseIndexClipsWhatItQuotes(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, src := range []string{
		`{"` + long + `": {}}`,
		`{"modules": {"` + long + `": {}}}`,
		`{"providers": {"` + long + `": {}}}`,
		`{"modules": {"a/b/c": {"modules": "` + long + `"}}}`,
		`{"modules": {"a/b/c` + long + `": []}}`,
	} {
		_, err := ParseIndex([]byte(src), "index.json")
		if err == nil || len(err.Error()) > 4<<10 {
			t.Errorf("error of %d bytes: %.200v", len(fmt.Sprint(err)), err)
		}
	}
}
