package lines

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadList(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, text string
		path       string // instead of a file holding text
		limit      int64
		want       []string
		err        string
		long       int // the line of a *LongLineError
	}{
		{name: "items", text: "1.0.0\n  1.1.0-rc.1 \r\n\n# a comment\n   # another\n2.0.0", want: []string{"1.0.0", "1.1.0-rc.1", "2.0.0"}},
		{name: "empty", text: "", want: nil},
		{name: "the longest line", text: "a\n" + strings.Repeat("x", Max) + "\r\n", want: []string{"a", strings.Repeat("x", Max)}},
		{name: "a line too long", text: "a\n\n" + strings.Repeat("x", Max+1) + "\n", long: 3},
		{name: "a comment too long", text: "#" + strings.Repeat("x", Max), long: 1},
		{name: "too large", text: "1.0.0\n2.0.0\n", limit: 6, err: "larger than"},
		{name: "not there", path: filepath.Join(dir, "none"), err: "no such file"},
		{name: "a directory", path: dir, err: "directory"},
		{name: "the null device", path: os.DevNull, want: nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = filepath.Join(dir, string(rune('a'+i)))
				if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			limit := tt.limit
			if limit == 0 {
				limit = 64 << 20
			}
			got, err := ReadList(path, limit)
			var long *LongLineError
			switch {
			case tt.long != 0:
				if !errors.As(err, &long) || long.Line != tt.long || long.Path != path {
					t.Errorf("error %v, want a line too long at line %d", err, tt.long)
				}
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) || errors.As(err, &long) {
					t.Errorf("error %v, want %q", err, tt.err)
				}
			case err != nil || !reflect.DeepEqual(got, tt.want):
				t.Errorf("%q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
