package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name      string
		got, want string
		diff      string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"both empty", "", "", ""},
		{"changed line", "a\nb\nc\n", "a\nB\nc\n",
			"first difference at line 2:\n  got:  \"b\\n\"\n  want: \"B\\n\"\ngot 3 lines, the golden file 3 lines"},
		{"first line", "x\n", "y\n",
			"first difference at line 1:\n  got:  \"x\\n\"\n  want: \"y\\n\"\ngot 1 line, the golden file 1 line"},
		{"extra line", "a\nb\n", "a\n",
			"first difference at line 2:\n  got:  \"b\\n\"\n  want: (end of file)\ngot 2 lines, the golden file 1 line"},
		{"missing line", "a\n", "a\nb\n",
			"first difference at line 2:\n  got:  (end of file)\n  want: \"b\\n\"\ngot 1 line, the golden file 2 lines"},
		{"no final newline", "a\nb", "a\nb\n",
			"first difference at line 2:\n  got:  \"b\"\n  want: \"b\\n\"\ngot 2 lines, the golden file 2 lines"},
		{"crlf", "a\r\n", "a\n",
			"first difference at line 1:\n  got:  \"a\\r\\n\"\n  want: \"a\\n\"\ngot 1 line, the golden file 1 line"},
		{"trailing space", "a \n", "a\n",
			"first difference at line 1:\n  got:  \"a \\n\"\n  want: \"a\\n\"\ngot 1 line, the golden file 1 line"},
		{"empty got", "", "a\n",
			"first difference at line 1:\n  got:  (end of file)\n  want: \"a\\n\"\ngot 0 lines, the golden file 1 line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := diff([]byte(tt.got), []byte(tt.want)); got != tt.diff {
				t.Errorf("diff(%q, %q) =\n%s\nwant\n%s", tt.got, tt.want, got, tt.diff)
			}
		})
	}
}

// recorder is a testing.TB that keeps what a test reports. Fatal and
// Fatalf end the call with a panic of fatal, as the real ones end the
// test.
type recorder struct {
	testing.TB
	errors []string
}

type fatal struct{}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatal(args ...any) {
	r.errors = append(r.errors, fmt.Sprint(args...))
	panic(fatal{})
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(fatal{})
}

// check runs Check with a recorder and returns what it reported.
func check(path string, got []byte) (errors []string) {
	r := &recorder{}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(fatal); !ok {
				panic(p)
			}
		}
		errors = r.errors
	}()
	Check(r, path, got)
	return r.errors
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		path   string
		update bool
		got    string
		errs   []string // substrings of the one error Check reports; none for no error
		file   string   // what path holds afterwards, when not ""
	}{
		{name: "equal", path: path, got: "a\nb\n", file: "a\nb\n"},
		{name: "differs", path: path, got: "a\nc\n",
			errs: []string{"output differs from " + path, "first difference at line 2:\n  got:  \"c\\n\"\n  want: \"b\\n\""}, file: "a\nb\n"},
		{name: "missing", path: filepath.Join(dir, "none.txt"), got: "x\n", errs: []string{"-update to write it"}},
		{name: "update rewrites", path: path, update: true, got: "new\n", file: "new\n"},
		{name: "update creates", path: filepath.Join(dir, "sub", "dir", "new.txt"), update: true, got: "created\n", file: "created\n"},
		{name: "after update", path: path, got: "new\n", file: "new\n"},
	}
	defer func(u bool) { *update = u }(*update)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			*update = tt.update
			if Update() != tt.update {
				t.Errorf("Update() = %v with the flag %v", Update(), tt.update)
			}
			errs := check(tt.path, []byte(tt.got))
			if len(errs) != min(len(tt.errs), 1) {
				t.Fatalf("reported %q, want one error with %q", errs, tt.errs)
			}
			for _, want := range tt.errs {
				if !strings.Contains(errs[0], want) {
					t.Errorf("error %q does not say %q", errs[0], want)
				}
			}
			if tt.file != "" {
				b, err := os.ReadFile(tt.path)
				if err != nil {
					t.Fatal(err)
				}
				if string(b) != tt.file {
					t.Errorf("%s holds %q, want %q", tt.path, b, tt.file)
				}
			}
		})
	}
}
