package printable

import "testing"

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"reg.example/ns/name/aws", "reg.example/ns/name/aws"},
		{"~> 1.2, >= 1.2.3-beta", "~> 1.2, >= 1.2.3-beta"},
		{`C:\path`, `C:\path`},
		{"bücher.example", "bücher.example"},
		{"\x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m", `\x1b[2J\x1b[31mTERMINAL HIJACK\x1b[0m`},
		{"line\nbreak\r\ttab", `line\nbreak\r\ttab`},
		{"\x7f\u0085", `\x7f\u0085`},
		{"abc\u202egnp.exe", `abc\u202egnp.exe`},
		{"\xff\xfe", `\xff\xfe`},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if Safe(tt.in) != (tt.in == tt.want) {
			t.Errorf("Safe(%q) = %v", tt.in, Safe(tt.in))
		}
	}
}

func TestLines(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\tb\nc\td", "a\tb\nc\td"},
		{"one\x1b[2J\ntwo\r\u202e", `one\x1b[2J` + "\n" + `two\r\u202e`},
		{"\xff\n", `\xff` + "\n"},
	} {
		if got := Lines(tt.in); got != tt.want {
			t.Errorf("Lines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
