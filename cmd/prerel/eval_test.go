package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
)

// TestCompileCacheBoundedByBytes checks the accounting of eval's compile
// cache: a long constraint is compiled for its line and not kept, and the
// constraints kept never add up to more than maxCachedBytes or
// maxCachedConstraints, however many distinct ones come.
func TestCompileCacheBoundedByBytes(t *testing.T) {
	strict, ok := catalogue.New().Lookup("strict")
	if !ok {
		t.Fatal("no strict policy")
	}
	c := &compileCache{policies: []engine.Policy{strict}}
	check := func(when string) {
		t.Helper()
		sum := 0
		for k := range c.entries {
			sum += len(k)
		}
		if sum != c.bytes || c.bytes > maxCachedBytes || len(c.entries) > maxCachedConstraints {
			t.Fatalf("%s: %d constraints of %d bytes cached, accounted as %d; the bounds are %d and %d bytes",
				when, len(c.entries), sum, c.bytes, maxCachedConstraints, maxCachedBytes)
		}
	}

	long := ">= 1.0.0" + strings.Repeat(", >= 1.0.0", maxCachedConstraintLen/10)
	if rs := c.judge(long, "1.0.0"); len(rs) != 1 || rs[0].Verdict != engine.Allow {
		t.Fatalf("a long constraint: %v, want allow", rs)
	}
	if len(c.entries) != 0 || c.bytes != 0 {
		t.Fatalf("a constraint of %d bytes was cached (%d entries, %d bytes)", len(long), len(c.entries), c.bytes)
	}

	// Distinct constraints just under the length limit fill the byte
	// bound many times over.
	pad := strings.Repeat(", >= 0.0.1", (maxCachedConstraintLen-40)/10)
	for i := 0; i < 3*maxCachedBytes/maxCachedConstraintLen; i++ {
		constraint := fmt.Sprintf(">= 1.0.%d%s", i, pad)
		if len(constraint) > maxCachedConstraintLen {
			t.Fatalf("a constraint of %d bytes, longer than %d", len(constraint), maxCachedConstraintLen)
		}
		c.judge(constraint, "2.0.0")
		check(fmt.Sprintf("after %d long constraints", i+1))
	}
	if c.bytes == 0 {
		t.Fatal("nothing cached")
	}

	// Many short constraints reach the bound on entries first.
	for i := 0; i < maxCachedConstraints+100; i++ {
		c.judge(fmt.Sprintf(">= %d", i), "2.0.0")
		if i%1000 == 0 {
			check(fmt.Sprintf("after %d short constraints", i+1))
		}
	}
	check("at the end")

	// A cached constraint answers as a fresh one does.
	c.judge(">= 1.0.0-beta", "1.0.0-rc.1")
	if rs := c.judge(">= 1.0.0-beta", "1.0.0-rc.1"); rs[0].Verdict != engine.Reject {
		t.Errorf("cached constraint: %v, want reject", rs)
	}
}

// TestEvalBatchesBoundedByBytes checks that long lines are handed over in
// batches of about evalBatchBytes, not evalBatch lines at a time.
func TestEvalBatchesBoundedByBytes(t *testing.T) {
	line := ">= 1.0.0\t" + strings.Repeat("1", maxLine-20) + "\n"
	const n = 12
	var in strings.Builder
	for i := 0; i < n; i++ {
		in.WriteString(line)
	}
	var batches []int
	err := eachBatch(strings.NewReader(in.String()), func(batch []evalCase) error {
		size := 0
		for _, c := range batch {
			size += len(c.constraint) + 1 + len(c.version)
		}
		if size > evalBatchBytes+maxLine {
			t.Errorf("a batch of %d lines and %d bytes, more than %d", len(batch), size, evalBatchBytes+maxLine)
		}
		batches = append(batches, len(batch))
		return nil
	})
	total := 0
	for _, b := range batches {
		total += b
	}
	if err != nil || total != n || len(batches) < 2 {
		t.Errorf("batches %v, error %v; want %d lines in at least 2 batches", batches, err, n)
	}
}

// TestEvalDropsOneCarriageReturn checks that exactly one "\r" is dropped
// at the end of a line, also at the end of the input, and that the rest
// is echoed byte for byte.
func TestEvalDropsOneCarriageReturn(t *testing.T) {
	tests := []struct {
		name, in, out string
	}{
		{"LF", ">= 1.0\t1.0.0\n", ">= 1.0\t1.0.0\tallow\n"},
		{"CR LF", ">= 1.0\t1.0.0\r\n", ">= 1.0\t1.0.0\tallow\n"},
		{"two CRs", ">= 1.0\t1.0.0\r\r\n", ">= 1.0\t1.0.0\r\tinvalid\n"},
		{"CR at the end of the input", ">= 1.0\t1.0.0\r", ">= 1.0\t1.0.0\tallow\n"},
		{"two CRs at the end of the input", ">= 1.0\t1.0.0\r\r", ">= 1.0\t1.0.0\r\tinvalid\n"},
		{"no line break", ">= 1.0\t1.0.0", ">= 1.0\t1.0.0\tallow\n"},
		{"CR inside", ">= 1.0\r\t1.0.0\n", ">= 1.0\r\t1.0.0\tallow\n"},
		{"CR alone", ">= 1.0\t1.0.0\n\r\n", ">= 1.0\t1.0.0\tallow\n"},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.in, "eval", "--policies", "strict")
		if tt.name == "CR alone" {
			// An empty line is not two fields, with or without its "\r".
			if code != exitUsage || out != tt.out || !strings.Contains(stderr, "stdin line 2: expected 2 tab-separated fields") {
				t.Errorf("%s: exit %d, stdout %q, stderr %q", tt.name, code, out, stderr)
			}
			continue
		}
		if code != exitOK || out != tt.out {
			t.Errorf("%s: exit %d, stdout %q, want %q (stderr %q)", tt.name, code, out, tt.out, stderr)
		}
	}
}

// TestEvalJSONKeepsInvalidUTF8Distinct checks that inputs that differ only
// in bytes that are not valid UTF-8 stay distinct in JSON: the exact bytes
// come in base64 next to the text.
func TestEvalJSONKeepsInvalidUTF8Distinct(t *testing.T) {
	inputs := []struct{ constraint, version string }{
		{">= 1.0", "\xff\xfe"},
		{">= 1.0", "\xfe\xff"},
		{">= 1.0\x80", "1.0.0"},
		{">= 1.0", "1.0.0"},
	}
	var in strings.Builder
	for _, c := range inputs {
		in.WriteString(c.constraint + "\t" + c.version + "\n")
	}
	code, out, stderr := runCLI(t, in.String(), "eval", "--format", "json", "--policies", "strict")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(inputs) {
		t.Fatalf("%d lines for %d inputs:\n%s", len(lines), len(inputs), out)
	}
	seen := map[string]bool{}
	for i, l := range lines {
		var got struct {
			Constraint       string  `json:"constraint"`
			Version          string  `json:"version"`
			ConstraintBase64 *string `json:"constraint_base64"`
			VersionBase64    *string `json:"version_base64"`
		}
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, l)
		}
		exact := func(text string, b64 *string, want string) string {
			if b64 == nil {
				if text != want {
					t.Errorf("line %d: %q without base64, want %q", i+1, text, want)
				}
				return text
			}
			raw, err := base64.StdEncoding.DecodeString(*b64)
			if err != nil || string(raw) != want {
				t.Errorf("line %d: base64 %q decodes to %q (%v), want %q", i+1, *b64, raw, err, want)
			}
			return string(raw)
		}
		key := exact(got.Constraint, got.ConstraintBase64, inputs[i].constraint) + "\t" + exact(got.Version, got.VersionBase64, inputs[i].version)
		if seen[key] {
			t.Errorf("line %d repeats an earlier input: %s", i+1, l)
		}
		seen[key] = true
	}
	if strings.Contains(lines[3], "base64") {
		t.Errorf("a valid UTF-8 line has a base64 field: %s", lines[3])
	}
}

// TestEvalEmptyInput checks that no input gives no output and success:
// every line read is answered.
func TestEvalEmptyInput(t *testing.T) {
	for _, format := range []string{"tsv", "json"} {
		code, out, stderr := runCLI(t, "", "eval", "--format", format)
		if code != exitOK || out != "" || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 0 and nothing", format, code, out, stderr)
		}
	}
}

// TestEvalLineTooLong checks the message for a line longer than maxLine,
// after the lines before it were answered, and that a line of exactly
// maxLine bytes is read, with or without "\r\n".
func TestEvalLineTooLong(t *testing.T) {
	first := ">= 1.0\t1.0.0\n"
	longest := ">= 1.0\t1.0.0" + strings.Repeat("+", maxLine-len(">= 1.0\t1.0.0"))
	tests := []struct {
		name, in string
		code     int
		lines    int
		stderr   string
	}{
		{"one byte too long", first + longest + "+\n", exitUsage, 1, "prerel eval: stdin line 2: line longer than 1048576 bytes\n"},
		{"far too long", first + strings.Repeat("x", 3*maxLine) + "\n", exitUsage, 1, "prerel eval: stdin line 2: line longer than 1048576 bytes\n"},
		{"too long at the end of the input", first + longest + "+", exitUsage, 1, "prerel eval: stdin line 2: line longer than 1048576 bytes\n"},
		{"the longest line", first + longest + "\n", exitOK, 2, ""},
		{"the longest line with CR LF", first + longest + "\r\n", exitOK, 2, ""},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.in, "eval", "--policies", "strict")
		if code != tt.code || strings.Count(out, "\n") != tt.lines || stderr != tt.stderr {
			t.Errorf("%s: exit %d, %d lines, stderr %q; want exit %d, %d lines, %q",
				tt.name, code, strings.Count(out, "\n"), stderr, tt.code, tt.lines, tt.stderr)
		}
	}
}

// TestReasonsClipLongInput checks that a long invalid constraint is not
// repeated by each reason: every policy's reason stays within a few KB, so
// that the output is the echo of the line and a bounded rest.
func TestReasonsClipLongInput(t *testing.T) {
	constraint := ">= " + strings.Repeat("1", 1000000-len(">= x")) + "x"
	code, out, stderr := runCLI(t, constraint+"\t1.0.0\n", "eval", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %.500s", code, stderr)
	}
	var got engine.EvalLine
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Constraint != constraint || len(got.Results) != len(catalogue.New().All()) {
		t.Fatalf("unexpected line of %d bytes", len(out))
	}
	for _, r := range got.Results {
		if len(r.Reason) > 2048 || r.Verdict != engine.Invalid {
			t.Errorf("%s: %s, a reason of %d bytes: %.200s", r.Policy, r.Verdict, len(r.Reason), r.Reason)
		}
	}
	if rest := len(out) - len(constraint); rest > 2048*len(got.Results)+1024 {
		t.Errorf("the output is %d bytes beyond the echoed constraint", rest)
	}

	// The same constraint as an argument is an error of bounded length.
	code, _, stderr = runCLI(t, "", "check", constraint, "1.0.0")
	if code != exitUsage || len(stderr) > 1024 || !strings.Contains(stderr, "(1000000 bytes): column 4: major number") {
		t.Errorf("check: exit %d, stderr of %d bytes: %.300s", code, len(stderr), stderr)
	}
}

// TestEvalInvalidUTF8InTSV checks that TSV echoes bytes that are not valid
// UTF-8 as they are.
func TestEvalInvalidUTF8InTSV(t *testing.T) {
	in := ">= 1.0\t\xff\xfe\n"
	code, out, _ := runCLI(t, in, "eval", "--policies", "strict")
	if code != exitOK || !bytes.HasPrefix([]byte(out), []byte(">= 1.0\t\xff\xfe\tinvalid")) {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}
