// Package hclread reads and parses the HCL files prerel reads (Terraform
// and OpenTofu configuration files, prerel.hcl, the dependency lock file,
// the module manifest) so that no file can exhaust prerel's memory or
// stack: each file is read with package safefile (a regular file of at
// most safefile.ConfigLimit bytes), and its nesting is measured before
// the HCL parser, which recurses once per level, sees it. The measure
// reads the bytes once, as HCL's lexer would, without making its tokens;
// only a file that may nest too deep is lexed for it, and then parsed
// (lexed again) only when it does not.
//
// A file nested deeper than MaxNesting levels is refused with one error
// diagnostic at the start of the expression that nests too deep:
//
//	main.tf:2:6: Expressions nested deeper than 1000 levels; ...
//
// Every problem is an hcl.Diagnostic. A diagnostic about a file that could
// not be read carries the error from the file system as its Extra, so that
// a caller can tell an outside failure (permission, I/O) from bad input.
package hclread

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/prerel/prerel/internal/elide"
	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/internal/safefile"
)

// MaxNesting is how deep a file may nest. Each of these is one level: a
// block's or object's braces, brackets, parentheses, a quoted string or
// heredoc, a template interpolation or directive (${...}, %{...}), an
// %{if} or %{for} up to its end, and, within one expression, each
// operator, conditional and index applied in a chain (each + of
// a + b + c is a level, as the parser nests them). In HCL's JSON syntax
// each object and array is a level, and a string's template adds its own
// levels.
const MaxNesting = 1000

// firstPos is where a file starts.
var firstPos = hcl.Pos{Line: 1, Column: 1}

// ParseHCL parses src, the contents of the file filename, in HCL's native
// syntax, after checking that it nests at most MaxNesting levels deep.
func ParseHCL(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if d := checkNative(src, filename); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	return hclsyntax.ParseConfig(src, filename, firstPos)
}

// ParseJSON parses src, the contents of the file filename, in HCL's JSON
// syntax, after checking that it nests at most MaxNesting levels deep,
// counting the templates in its strings.
func ParseJSON(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if d := checkJSON(src, filename); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	return hcljson.Parse(src, filename)
}

// ReadFile reads the regular file at path, at most safefile.ConfigLimit
// bytes long. When it cannot be read, the error is one diagnostic with
// summary and a detail that says why (it does not exist, permission
// denied, not a regular file, too large); its Extra is the error.
func ReadFile(path, summary string) ([]byte, *hcl.Diagnostic) {
	src, err := safefile.Read(path, safefile.ConfigLimit)
	if err != nil {
		return nil, ReadError(path, summary, err)
	}
	return src, nil
}

// ReadError returns the error diagnostic for a file at path that could
// not be read: summary, a detail that says why and err as its Extra.
func ReadError(path, summary string, err error) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: why(err),
		Subject: &hcl.Range{Filename: path}, Extra: err}
}

// why says why a file could not be read, without repeating its name.
func why(err error) string {
	var nr *safefile.NotRegularError
	var tl *safefile.TooLargeError
	var dl *safefile.DanglingLinkError
	var pe *fs.PathError
	switch {
	case errors.As(err, &nr):
		return fmt.Sprintf("It is not a regular file (it is %s).", safefile.Kind(nr.Mode))
	case errors.As(err, &dl):
		return fmt.Sprintf("It is a dangling symbolic link: it points to %s, and no file is there.", printable.String(elide.Middle(dl.Target, 200)))
	case errors.As(err, &tl):
		return fmt.Sprintf("It is larger than %s, the limit for a configuration file.", safefile.Size(tl.Limit))
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
}

// Find reports whether the file at path, which prerel looks for by a
// conventional name rather than being told of it, is there to be read.
// A file that does not exist is not; a FIFO, device, socket or directory
// by that name is not either, with a warning diagnostic that says it is
// skipped (what is named description). Anything else, including a file
// whose kind cannot be told (permission), is read, so that reading it
// reports what is wrong.
func Find(path, description string) (bool, hcl.Diagnostics) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil || fi.Mode().IsRegular():
		return true, nil
	}
	return false, hcl.Diagnostics{Skipped(path, description, fi.Mode())}
}

// Skipped returns the warning for a file found at path that is not a
// regular file, of the kind mode says, and is not read.
func Skipped(path, description string, mode fs.FileMode) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Skipped " + description,
		Detail:  fmt.Sprintf("It is not a regular file (it is %s), so it is not read.", safefile.Kind(mode)),
		Subject: &hcl.Range{Filename: path}}
}

// tooDeep returns the diagnostic for a file nested deeper than
// MaxNesting at r.
func tooDeep(r hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError,
		Summary: fmt.Sprintf("Expressions nested deeper than %d levels", MaxNesting),
		Detail: fmt.Sprintf("Brackets, braces, parentheses, templates and chained operators may nest at most %d levels deep; the file is not read.",
			MaxNesting),
		Subject: r.Ptr()}
}

// checkNative measures the nesting of a native syntax file; nil when it
// is within MaxNesting.
func checkNative(src []byte, filename string) *hcl.Diagnostic {
	if bound(src) <= MaxNesting {
		return nil
	}
	if skim(src) {
		return nil
	}
	toks, _ := hclsyntax.LexConfig(src, filename, firstPos)
	var n nesting
	return n.scan(toks, 0, true)
}

// bound returns an upper bound of a native syntax text's nesting: every
// level and every chained operator starts with one of these bytes, and
// an opening bracket is both.
func bound(src []byte) int {
	n := 0
	for _, b := range src {
		switch b {
		case '[':
			n += 2
		case '(', '{', '"', '<', '$', '%', '+', '-', '*', '/', '=', '!', '>', '&', '|', '?':
			n++
		}
	}
	return n
}

// level is one open level of a native syntax text, or the text itself.
type level struct {
	// kind is the opening token's type; directive for %{if} and %{for},
	// top for the text itself.
	kind hclsyntax.TokenType
	// open is the opening token's place.
	open hcl.Range
	// body is set for the text itself and a block's braces: levels that
	// hold attributes and blocks rather than an expression.
	body bool
	// chain counts the operators and indexes applied in a chain at this
	// level since its last separator; chainStart is the first one's place.
	chain      int
	chainStart hcl.Range
	// keyword is, for a template directive (%{...}), its first word.
	keyword string
}

// The kinds of level that are not a token's: the text itself, and an
// %{if} or %{for} up to its %{endif} or %{endfor}.
const (
	top       hclsyntax.TokenType = -1
	directive hclsyntax.TokenType = -2
)

// nesting measures nesting over a stream of tokens.
type nesting struct {
	// stack are the open levels, the text itself first.
	stack []level
	// depth is the levels open inside the text plus every chain count;
	// max is the deepest it has been.
	depth, max int
	// trace, when set, receives the type of every token measured.
	trace *[]hclsyntax.TokenType
}

// endsOperand reports whether a token of type t can end an expression, so
// that a bracket after it indexes the expression rather than starting a
// tuple, and a brace after it opens a block's body.
func endsOperand(t hclsyntax.TokenType) bool {
	switch t {
	case hclsyntax.TokenIdent, hclsyntax.TokenNumberLit, hclsyntax.TokenCBrack, hclsyntax.TokenCParen,
		hclsyntax.TokenCBrace, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
		return true
	}
	return false
}

// scan reads toks, a file's when body is set and a template's otherwise,
// starting base levels deep. It returns the diagnostic for nesting past
// MaxNesting, at the start of the outermost expression that is too deep;
// nil when the nesting is within the limit.
func (n *nesting) scan(toks hclsyntax.Tokens, base int, body bool) *hcl.Diagnostic {
	n.start(body)
	prev := hclsyntax.TokenNil
	for i, t := range toks {
		keyword := ""
		if t.Type == hclsyntax.TokenTemplateControl && i+1 < len(toks) && toks[i+1].Type == hclsyntax.TokenIdent {
			keyword = string(toks[i+1].Bytes)
		}
		n.token(t.Type, t.Range, prev, keyword)
		if t.Type != hclsyntax.TokenComment && t.Type != hclsyntax.TokenNewline {
			prev = t.Type
		}
		if base+n.depth > MaxNesting {
			return tooDeep(n.place())
		}
	}
	return nil
}

// start begins a text, a file's when body is set and a template's
// otherwise.
func (n *nesting) start(body bool) {
	n.stack = append(n.stack[:0], level{kind: top, body: body})
	n.depth, n.max = 0, 0
}

// token measures one token of type typ at r; prev is the type of the
// token before it, comments and newlines aside, and keyword, for a
// template directive, the word that follows it.
func (n *nesting) token(typ hclsyntax.TokenType, r hcl.Range, prev hclsyntax.TokenType, keyword string) {
	if n.trace != nil {
		*n.trace = append(*n.trace, typ)
	}
	switch typ {
	case hclsyntax.TokenOBrace:
		inner := n.stack[len(n.stack)-1]
		n.push(level{kind: typ, open: r, body: inner.body && (prev == hclsyntax.TokenIdent || prev == hclsyntax.TokenCQuote)})
	case hclsyntax.TokenOParen, hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc,
		hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
		n.push(level{kind: typ, open: r, keyword: keyword})
	case hclsyntax.TokenOBrack:
		if endsOperand(prev) {
			// An index or splat extends the chain it follows.
			n.chain(r)
		}
		n.push(level{kind: typ, open: r})
	case hclsyntax.TokenCParen:
		n.popTo(hclsyntax.TokenOParen)
	case hclsyntax.TokenCBrack:
		n.popTo(hclsyntax.TokenOBrack)
	case hclsyntax.TokenCBrace:
		n.popTo(hclsyntax.TokenOBrace)
	case hclsyntax.TokenCQuote:
		n.popTo(hclsyntax.TokenOQuote)
	case hclsyntax.TokenCHeredoc:
		n.popTo(hclsyntax.TokenOHeredoc)
	case hclsyntax.TokenTemplateSeqEnd:
		n.endSequence(r)
	case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
		hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq,
		hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr,
		hclsyntax.TokenBang, hclsyntax.TokenQuestion:
		n.chain(r)
	case hclsyntax.TokenComma:
		n.separate()
	case hclsyntax.TokenNewline:
		// Newlines separate the attributes and blocks of a body and
		// the items of an object; inside brackets, parentheses and
		// templates they are ignored.
		if k := n.stack[len(n.stack)-1].kind; k == top || k == hclsyntax.TokenOBrace {
			n.separate()
		}
	}
	n.max = max(n.max, n.depth)
}

// place returns the start of the outermost expression open: the first
// chained operator of a body, or the opening token of the outermost level
// that is not a body; for blocks nested in blocks, the innermost block.
func (n *nesting) place() hcl.Range {
	for _, l := range n.stack {
		switch {
		case !l.body:
			if l.chain > 0 && l.kind == top {
				return l.chainStart
			}
			if l.kind != top {
				return l.open
			}
		case l.chain > 0:
			return l.chainStart
		}
	}
	return n.stack[len(n.stack)-1].open
}

func (n *nesting) push(l level) {
	n.stack = append(n.stack, l)
	n.depth++
}

// pop closes the innermost level.
func (n *nesting) pop() level {
	l := n.stack[len(n.stack)-1]
	n.stack = n.stack[:len(n.stack)-1]
	n.depth -= 1 + l.chain
	return l
}

// popTo closes the innermost level of the kind open and every level
// inside it; a closing token with no such level open closes nothing.
func (n *nesting) popTo(open hclsyntax.TokenType) {
	for i := len(n.stack) - 1; i > 0; i-- {
		if n.stack[i].kind == open {
			for len(n.stack) > i {
				n.pop()
			}
			return
		}
	}
}

// endSequence closes a template interpolation or directive; the end of an
// %{if} or %{for} opens a directive level, the end of an %{endif} or
// %{endfor} closes one.
func (n *nesting) endSequence(r hcl.Range) {
	var seq level
	found := false
	for i := len(n.stack) - 1; i > 0 && !found; i-- {
		if k := n.stack[i].kind; k == hclsyntax.TokenTemplateInterp || k == hclsyntax.TokenTemplateControl {
			for len(n.stack) > i {
				seq = n.pop()
			}
			found = true
		}
	}
	if !found || seq.kind != hclsyntax.TokenTemplateControl {
		return
	}
	switch seq.keyword {
	case "if", "for":
		n.push(level{kind: directive, open: seq.open})
	case "endif", "endfor":
		// Close the innermost directive of the template this sequence is
		// in, never one outside it.
		for i := len(n.stack) - 1; i > 0; i-- {
			switch n.stack[i].kind {
			case directive:
				for len(n.stack) > i {
					n.pop()
				}
				return
			case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
				return
			}
		}
	}
}

// chain counts one more operator or index, at r, in the innermost level's
// chain.
func (n *nesting) chain(r hcl.Range) {
	l := &n.stack[len(n.stack)-1]
	if l.chain == 0 {
		l.chainStart = r
	}
	l.chain++
	n.depth++
}

// separate ends the innermost level's chain.
func (n *nesting) separate() {
	l := &n.stack[len(n.stack)-1]
	n.depth -= l.chain
	l.chain = 0
}

// checkJSON measures the nesting of a JSON syntax file, as HCL's JSON
// scanner reads it: objects and arrays outside strings, and in each
// string that holds a template sequence, the template's own nesting.
func checkJSON(src []byte, filename string) *hcl.Diagnostic {
	depth := 0
	line, col := 1, 1 // the place of src[i]
	for i := 0; i < len(src); {
		b := src[i]
		switch b {
		case '{', '[':
			depth++
			if depth > MaxNesting {
				p := hcl.Pos{Line: line, Column: col, Byte: i}
				return tooDeep(hcl.Range{Filename: filename, Start: p, End: p})
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		case '"':
			end := stringEnd(src, i)
			start := hcl.Pos{Line: line, Column: col, Byte: i}
			if d := checkJSONString(src[i:end], filename, start, depth); d != nil {
				return d
			}
			col += utf8.RuneCount(src[i:end])
			i = end
			continue
		case '\n':
			line, col = line+1, 1
			i++
			continue
		}
		if utf8.RuneStart(b) {
			col++
		}
		i++
	}
	return nil
}

// stringEnd returns the offset just past the JSON string starting at
// src[start], found as HCL's JSON scanner finds it: at the first quote
// not escaped by a backslash, or before the first control character.
func stringEnd(src []byte, start int) int {
	escaping := false
	for i := start + 1; i < len(src); i++ {
		switch b := src[i]; {
		case b == '\\':
			escaping = !escaping
		case b == '"':
			if !escaping {
				return i + 1
			}
			escaping = false
		case b < 32:
			return i
		default:
			escaping = false
		}
	}
	return len(src)
}

// checkJSONString measures the template in the JSON string token tok,
// which starts at start, depth levels deep.
func checkJSONString(tok []byte, filename string, start hcl.Pos, depth int) *hcl.Diagnostic {
	if !templateLike(tok) {
		return nil
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return nil // HCL reports the string as malformed and does not parse it
	}
	if depth+bound([]byte(s)) <= MaxNesting {
		return nil
	}
	toks, _ := hclsyntax.LexTemplate([]byte(s), filename, start)
	var n nesting
	if d := n.scan(toks, depth, false); d != nil {
		// Places inside the template are not the file's: point at the
		// string.
		d.Subject = &hcl.Range{Filename: filename, Start: start, End: start}
		return d
	}
	return nil
}

// templateLike reports whether a JSON string token may hold a template
// sequence once decoded: "${", "%{" or an escape that may spell one.
func templateLike(tok []byte) bool {
	for i := 0; i+1 < len(tok); i++ {
		switch {
		case (tok[i] == '$' || tok[i] == '%') && tok[i+1] == '{':
			return true
		case tok[i] == '\\' && tok[i+1] == 'u':
			return true
		}
	}
	return false
}
