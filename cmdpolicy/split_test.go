package cmdpolicy

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"python3 rule.py", []string{"python3", "rule.py"}, ""},
		{"  node  'my rule.js' \t--strict ", []string{"node", "my rule.js", "--strict"}, ""},
		{"a\nb", []string{"a", "b"}, ""},
		{"", nil, ""},
		{" \t\n", nil, ""},

		// Quotes.
		{`sh -c "echo \"allow\""`, []string{"sh", "-c", `echo "allow"`}, ""},
		{`x''y ""`, []string{"xy", ""}, ""},
		{`'a "b" \c'`, []string{`a "b" \c`}, ""},
		{`"a 'b'"`, []string{`a 'b'`}, ""},
		{`"a\b \\ \$ \` + "`" + `"`, []string{`a\b \ $ ` + "`"}, ""},
		{"\"two\nlines\"", []string{"two\nlines"}, ""},
		{`'it'\''s'`, []string{"it's"}, ""},
		{"é 'ü'", []string{"é", "ü"}, ""},

		// Escapes outside quotes.
		{`a\ b c`, []string{"a b", "c"}, ""},
		{`a\b \"`, []string{"ab", `"`}, ""},
		{`\\`, []string{`\`}, ""},
		{"a\\\nb", []string{"ab"}, ""},

		// Nothing is expanded, and what a shell would expand is refused.
		{"*.py ~/rule {a,b} a=b", []string{"*.py", "~/rule", "{a,b}", "a=b"}, ""},
		{"a#b", []string{"a#b"}, ""},
		{`'$HOME' "\$x" $`, []string{"$HOME", "$x", "$"}, ""},
		{"$HOME/rule.py", nil, "$HOME would be expanded by a shell, and prerel runs none: write the value itself, or put it in single quotes to pass it as it is"},
		{`python3 -c "print('${x}')"`, nil, "${x} would be expanded by a shell"},
		{"echo $(date)", nil, "$(date) would be expanded by a shell"},
		{"echo `date`", nil, "`date` would be expanded by a shell"},
		{"echo $((1+2))", nil, "$((1+2)) would be expanded by a shell"},

		// Unterminated quotes and escapes.
		{"'open", nil, "a single quote is not closed"},
		{`"open`, nil, "a double quote is not closed"},
		{`a "b\"`, nil, "a double quote is not closed"},
		{`end\`, nil, "a backslash ends the command"},
		{`end\\\`, nil, "a backslash ends the command"},

		// What a shell would take for more than words.
		{"rule.py #comment", nil, `"#comment" starts a comment in a shell: quote the # to pass it as a word`},
		{"a #x\nb", nil, `"#x" starts a comment in a shell`},
		{"rule.py | tee log", nil, "| at column 9 is a shell operator, and prerel runs no shell: quote it to pass it as a word"},
		{"a;b", nil, "; at column 2 is a shell operator"},
		{"a > out", nil, "> at column 3 is a shell operator"},
		{"a &", nil, "& at column 3 is a shell operator"},
		{"rule\xff.py", nil, "column 5: invalid UTF-8 encoding"},
		{"@(x)", nil, "column 1: extended globs, which are not in the POSIX shell: quote it to pass it as it is"},
	}
	for _, tt := range tests {
		got, err := SplitCommand(tt.in)
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("SplitCommand(%q) = %q, %v; want error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// A command line as errors show it splits back into its words, where
// it is written as a shell reads it (no control characters, valid UTF-8).
func TestSplitCommandLine(t *testing.T) {
	for _, argv := range [][]string{
		{"python3", "rule.py"},
		{"node", "my rule.js", "--flag=a b", ""},
		{"sh", "-c", `echo "$1" | tr a b; exit 0`},
		{"a#b", "#c", "~", "*", "{x,y}", "$HOME", "`date`", `back\slash`},
	} {
		line := commandLine(argv)
		got, err := SplitCommand(line)
		if err != nil || !reflect.DeepEqual(got, argv) {
			t.Errorf("SplitCommand(%s) = %q, %v; want %q", line, got, err, argv)
		}
	}
}
