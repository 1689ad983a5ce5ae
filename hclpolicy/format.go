package hclpolicy

import (
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// maxShown bounds a value as an explanation shows it.
const maxShown = 600

// show writes v on one line in HCL's notation: strings quoted, lists in
// brackets, objects in braces with their attributes in name order. The
// objects prerel builds are shown by their text, as an expression could
// name them: a version as version("1.2.0-beta"), a comparator as its text
// (">= 1.2.0-beta"), a constraint as its text (">= 1.0, < 2.0").
func show(v cty.Value) string {
	var b strings.Builder
	write(&b, v)
	s := b.String()
	if len(s) > maxShown {
		s = s[:cutBefore(s, maxShown-3)] + "..."
	}
	return s
}

func write(b *strings.Builder, v cty.Value) {
	if b.Len() > maxShown {
		return
	}
	switch {
	case v == cty.NilVal:
		b.WriteString("(none)")
		return
	case v.IsMarked():
		v, _ = v.Unmark()
	}
	switch {
	case !v.IsKnown():
		b.WriteString("(unknown)")
		return
	case v.IsNull():
		b.WriteString("null")
		return
	}
	t := v.Type()
	switch {
	case t == cty.String:
		b.WriteString(quote(v.AsString()))
	case t == cty.Number:
		b.WriteString(v.AsBigFloat().Text('f', -1))
	case t == cty.Bool:
		if v.True() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case t.Equals(versionType):
		b.WriteString("version(")
		write(b, v.GetAttr("text"))
		b.WriteString(")")
	case t.Equals(comparatorType), t.Equals(constraintType):
		write(b, v.GetAttr("text"))
	case t.IsListType(), t.IsSetType(), t.IsTupleType():
		b.WriteString("[")
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, e)
		}
		b.WriteString("]")
	case t.IsObjectType(), t.IsMapType():
		b.WriteString("{")
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			k, e := it.Element()
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k.AsString())
			b.WriteString(" = ")
			write(b, e)
		}
		b.WriteString("}")
	default:
		b.WriteString(t.FriendlyName())
	}
}

// cutBefore moves i back to the start of the character it falls in.
func cutBefore(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// describeType names the type of a value an expression gave, known or
// not, for an error: "a string", "a version object", "null".
func describeType(v cty.Value) string {
	switch {
	case v == cty.NilVal:
		return "nothing"
	case v.IsNull():
		return "null"
	}
	return friendly(v.Type())
}

// traversalPath writes the steps of a traversal after its root as an
// expression writes them: "comparators[0].op".
func traversalPath(rel hcl.Traversal) string {
	var b strings.Builder
	for _, step := range rel {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + show(s.Key) + "]")
		default:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

// An exprNode is one token of an expression as an explanation lays it
// out, or a bracketed group of them.
type exprNode struct {
	// text is the token's text; a group's opening bracket.
	text string
	typ  hclsyntax.TokenType
	// space is whether whitespace comes before it in the source.
	space bool
	// kids are a group's contents.
	kids []exprNode
	// close is a group's closing bracket, "" for a token.
	close string
}

func (n *exprNode) group() bool { return n.close != "" }

func (n *exprNode) is(typ hclsyntax.TokenType) bool { return !n.group() && n.typ == typ }

func (n *exprNode) keyword(k string) bool { return n.is(hclsyntax.TokenIdent) && n.text == k }

// exprNodes reads an expression's source into tokens and bracketed groups,
// without its comments and line breaks; a line break that separates two
// attributes of an object becomes a comma. It reports false when the
// source does not lex into balanced brackets.
func exprNodes(src string) ([]exprNode, bool) {
	toks, diags := hclsyntax.LexExpression([]byte(src), "", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, false
	}
	r := nodeReader{src: src, toks: toks}
	nodes, ok := r.read(hclsyntax.TokenEOF, false)
	return nodes, ok && r.i == len(toks)
}

type nodeReader struct {
	src  string
	toks hclsyntax.Tokens
	i    int
}

// closers maps an opening bracket to its closing one.
var closers = map[hclsyntax.TokenType]hclsyntax.TokenType{
	hclsyntax.TokenOParen: hclsyntax.TokenCParen,
	hclsyntax.TokenOBrack: hclsyntax.TokenCBrack,
	hclsyntax.TokenOBrace: hclsyntax.TokenCBrace,
}

// read reads nodes up to the token end, which it consumes; object says
// that a line break separates attributes.
func (r *nodeReader) read(end hclsyntax.TokenType, object bool) (nodes []exprNode, ok bool) {
	space := false
	last := 0 // the byte after the last token read
	for r.i < len(r.toks) {
		tok := r.toks[r.i]
		if tok.Range.Start.Byte > last {
			space = true
		}
		last = tok.Range.End.Byte
		switch tok.Type {
		case end:
			r.i++
			if n := len(nodes); n > 0 && end != hclsyntax.TokenEOF && nodes[n-1].is(hclsyntax.TokenComma) {
				nodes = nodes[:n-1]
			}
			return nodes, true
		case hclsyntax.TokenEOF, hclsyntax.TokenCParen, hclsyntax.TokenCBrack, hclsyntax.TokenCBrace:
			return nil, false
		case hclsyntax.TokenNewline, hclsyntax.TokenComment:
			r.i++
			space = true
			if n := len(nodes); object && n > 0 && !nodes[n-1].is(hclsyntax.TokenComma) &&
				(tok.Type == hclsyntax.TokenNewline || strings.HasSuffix(string(tok.Bytes), "\n")) {
				nodes = append(nodes, exprNode{text: ",", typ: hclsyntax.TokenComma})
			}
			continue
		case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			text, end, ok := r.template()
			if !ok {
				return nil, false
			}
			last = end
			nodes = append(nodes, exprNode{text: text, typ: tok.Type, space: space})
		case hclsyntax.TokenOParen, hclsyntax.TokenOBrack, hclsyntax.TokenOBrace:
			r.i++
			inObject := tok.Type == hclsyntax.TokenOBrace && !r.forNext()
			kids, ok := r.read(closers[tok.Type], inObject)
			if !ok {
				return nil, false
			}
			last = r.toks[r.i-1].Range.End.Byte
			nodes = append(nodes, exprNode{
				text: string(tok.Bytes), typ: tok.Type, space: space, kids: kids,
				close: string(r.toks[r.i-1].Bytes),
			})
		default:
			r.i++
			nodes = append(nodes, exprNode{text: string(tok.Bytes), typ: tok.Type, space: space})
		}
		space = false
	}
	return nil, false
}

// forNext reports whether the next token, past line breaks and comments,
// is the keyword for.
func (r *nodeReader) forNext() bool {
	for _, t := range r.toks[r.i:] {
		if t.Type != hclsyntax.TokenNewline && t.Type != hclsyntax.TokenComment {
			return t.Type == hclsyntax.TokenIdent && string(t.Bytes) == "for"
		}
	}
	return false
}

// template reads a quoted string or a heredoc, with the templates it
// interpolates, as one token: its source, on one line.
func (r *nodeReader) template() (text string, end int, ok bool) {
	start := r.toks[r.i].Range.Start.Byte
	depth := 0
	for ; r.i < len(r.toks); r.i++ {
		switch t := r.toks[r.i]; t.Type {
		case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
			depth++
		case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
			if depth--; depth == 0 {
				r.i++
				end = t.Range.End.Byte
				text = r.src[start:end]
				if strings.ContainsAny(text, "\r\n") {
					text = strings.Join(strings.Fields(text), " ")
				}
				return text, end, true
			}
		case hclsyntax.TokenEOF:
			return "", 0, false
		}
	}
	return "", 0, false
}

// spaced reports whether a space goes between prev and n on one line:
// none after an opening ( or [, none before a comma, one after a comma,
// otherwise as the source has it.
func spaced(prev, n *exprNode) bool {
	switch {
	case prev == nil:
		return false
	case n.is(hclsyntax.TokenComma):
		return false
	case prev.is(hclsyntax.TokenComma):
		return true
	}
	return n.space
}

// flat writes nodes on one line.
func flat(nodes []exprNode) string {
	var b strings.Builder
	writeFlat(&b, nodes)
	return b.String()
}

func writeFlat(b *strings.Builder, nodes []exprNode) {
	for i := range nodes {
		if i > 0 && spaced(&nodes[i-1], &nodes[i]) {
			b.WriteByte(' ')
		}
		writeNode(b, &nodes[i])
	}
}

func writeNode(b *strings.Builder, n *exprNode) {
	b.WriteString(n.text)
	if !n.group() {
		return
	}
	pad := n.typ == hclsyntax.TokenOBrace && len(n.kids) > 0 && !n.kids[0].keyword("for")
	if pad {
		b.WriteByte(' ')
	}
	writeFlat(b, n.kids)
	if pad {
		b.WriteByte(' ')
	}
	b.WriteString(n.close)
}

// flatSource returns an expression's source on one line, without its
// comments, as an explanation writes it.
func flatSource(src string) string {
	if nodes, ok := exprNodes(src); ok {
		return flat(nodes)
	}
	return strings.Join(strings.Fields(src), " ")
}

// layoutExpr lays an expression's source out in lines of at most width
// runes where it can: on one line when it fits, otherwise broken after
// the commas of a list, before && and || and comparison operators, before
// the ? and : of a conditional and after the : of a for expression, with
// the contents of a bracket too long for its line on lines of their own,
// indented by two.
func layoutExpr(src string, width int) []string {
	nodes, ok := exprNodes(src)
	if !ok {
		return []string{strings.Join(strings.Fields(src), " ")}
	}
	l := layout{width: width, fresh: true}
	l.seq(nodes, 0)
	l.newline(0)
	return l.lines
}

// layout writes the nodes of an expression into lines.
type layout struct {
	width  int
	lines  []string
	line   strings.Builder
	cols   int  // runes on the current line
	indent int  // the current line's indentation
	fresh  bool // nothing follows the indentation yet
	last   *exprNode
	opened bool // the last thing written is an opening ( or [
}

// newline ends the current line, unless nothing is on it, and starts one
// indented by indent.
func (l *layout) newline(indent int) {
	if l.cols > l.indent {
		l.lines = append(l.lines, strings.TrimRight(l.line.String(), " "))
	}
	l.line.Reset()
	l.line.WriteString(strings.Repeat(" ", indent))
	l.cols, l.indent, l.fresh, l.last, l.opened = indent, indent, true, nil, false
}

// sep is the space that goes before n on the current line.
func (l *layout) sep(n *exprNode) int {
	if l.fresh || l.opened || !spaced(l.last, n) {
		return 0
	}
	return 1
}

// fits reports whether text, starting with n, fits on the current line.
func (l *layout) fits(n *exprNode, text string) bool {
	return l.cols+l.sep(n)+utf8.RuneCountInString(text) <= l.width
}

// put writes text, which starts with first and ends with last, on the
// current line.
func (l *layout) put(first, last *exprNode, text string) {
	if l.sep(first) == 1 {
		l.line.WriteByte(' ')
		l.cols++
	}
	l.line.WriteString(text)
	l.cols += utf8.RuneCountInString(text)
	l.fresh, l.last, l.opened = false, last, false
}

// seq writes nodes from the current position, breaking lines where they
// do not fit; lines it starts are indented by indent.
func (l *layout) seq(nodes []exprNode, indent int) {
	if len(nodes) == 0 {
		return
	}
	if text := flat(nodes); l.fits(&nodes[0], text) {
		l.put(&nodes[0], &nodes[len(nodes)-1], text)
		return
	}
	segs, eachLine := split(nodes)
	if len(segs) == 1 {
		l.chain(nodes, indent)
		return
	}
	for i, s := range segs {
		if i > 0 && eachLine {
			l.newline(indent)
		}
		text := flat(s)
		switch {
		case l.fits(&s[0], text):
			l.put(&s[0], &s[len(s)-1], text)
		case !l.fresh && indent+utf8.RuneCountInString(text) <= l.width:
			l.newline(indent)
			l.put(&s[0], &s[len(s)-1], text)
		default:
			if !l.fresh && l.cols+l.sep(&s[0])+l.wordWidth(s, 0) > l.width {
				l.newline(indent)
			}
			l.seq(s, indent+2)
		}
	}
}

// chain writes nodes that have no place to break between them but the
// spaces inside them and inside their groups: it starts a line before a
// word that does not fit on the current one (an operator together with
// the word after it), and breaks inside the groups that do not fit.
func (l *layout) chain(nodes []exprNode, indent int) {
	for i := range nodes {
		n := &nodes[i]
		if !l.fresh && !l.opened && spaced(l.last, n) && l.cols+1+l.wordWidth(nodes, i) > l.width {
			l.newline(indent)
		}
		text := flat(nodes[i : i+1])
		switch {
		case !n.group() || l.fits(n, text) && l.cols+l.sep(n)+l.wordWidth(nodes, i) <= l.width:
			l.put(n, n, text)
		default:
			l.group(n)
		}
	}
}

// wordWidth is how many runes of the line nodes[i:] need before the next
// place a line may break: up to the next space that does not follow an
// operator, or into the first group that would not fit on a line of its
// own.
func (l *layout) wordWidth(nodes []exprNode, i int) int {
	w := 0
	for j := i; j < len(nodes); j++ {
		n := &nodes[j]
		if j > i && spaced(&nodes[j-1], n) {
			if !operator(&nodes[j-1]) {
				break
			}
			w++
		}
		text := flat(nodes[j : j+1])
		if n.group() && l.indent+w+utf8.RuneCountInString(text) > l.width {
			return w + utf8.RuneCountInString(n.text)
		}
		w += utf8.RuneCountInString(text)
	}
	return w
}

// operator reports whether n is a binary operator or a conditional's ?
// or :, which stays on a line with what follows it.
func operator(n *exprNode) bool {
	switch {
	case n.group():
		return false
	case n.typ == hclsyntax.TokenOr, n.typ == hclsyntax.TokenAnd, n.typ == hclsyntax.TokenQuestion,
		n.typ == hclsyntax.TokenColon, n.typ == hclsyntax.TokenEqualOp, n.typ == hclsyntax.TokenNotEqual,
		n.typ == hclsyntax.TokenLessThan, n.typ == hclsyntax.TokenLessThanEq,
		n.typ == hclsyntax.TokenGreaterThan, n.typ == hclsyntax.TokenGreaterThanEq,
		n.typ == hclsyntax.TokenPlus, n.typ == hclsyntax.TokenMinus, n.typ == hclsyntax.TokenStar,
		n.typ == hclsyntax.TokenSlash, n.typ == hclsyntax.TokenPercent, n.typ == hclsyntax.TokenFatArrow,
		n.typ == hclsyntax.TokenEqual:
		return true
	}
	return false
}

// group writes a group that does not fit on the current line: its opening
// bracket, its contents on lines of their own indented by two more than
// the line the bracket is on, and its closing bracket on a line of its
// own. A group that holds only another group opens and closes with it:
// anytrue([ ... ]).
func (l *layout) group(n *exprNode) {
	base := l.indent
	l.put(n, n, n.text)
	l.opened = n.typ != hclsyntax.TokenOBrace
	if len(n.kids) == 1 && n.kids[0].group() {
		k := &n.kids[0]
		if text := flat(n.kids); l.fits(k, text) {
			l.put(k, k, text)
		} else {
			l.group(k)
		}
	} else {
		l.newline(base + 2)
		l.seq(n.kids, base+2)
		l.newline(base)
	}
	l.line.WriteString(n.close)
	l.cols += utf8.RuneCountInString(n.close)
	l.fresh, l.last, l.opened = false, n, false
}

// split splits nodes where a line may break, at the loosest kind of break
// they have: after the header of a for expression and before its if (each
// part on its own line), after commas, before the ? and : of a conditional
// (each part on its own line), before ||, before &&, before a comparison.
// eachLine says that once broken, every part goes on a line of its own.
func split(nodes []exprNode) (segs [][]exprNode, eachLine bool) {
	cut := func(at []int, after bool) [][]exprNode {
		var out [][]exprNode
		start := 0
		for _, i := range at {
			if after {
				i++
			}
			if i > start && i < len(nodes) {
				out = append(out, nodes[start:i])
				start = i
			}
		}
		return append(out, nodes[start:])
	}
	find := func(match func(*exprNode) bool) []int {
		var at []int
		for i := 1; i < len(nodes); i++ {
			if match(&nodes[i]) {
				at = append(at, i)
			}
		}
		return at
	}
	if nodes[0].keyword("for") {
		colon := find(func(n *exprNode) bool { return n.is(hclsyntax.TokenColon) })
		if len(colon) == 0 {
			return [][]exprNode{nodes}, false
		}
		segs := cut(colon[:1], true)
		if len(segs) == 2 {
			body := segs[1]
			for i := 1; i < len(body); i++ {
				if body[i].keyword("if") {
					segs = [][]exprNode{segs[0], body[:i], body[i:]}
					break
				}
			}
		}
		return segs, true
	}
	if at := find(func(n *exprNode) bool { return n.is(hclsyntax.TokenComma) }); len(at) > 0 {
		return cut(at, true), false
	}
	if q := find(func(n *exprNode) bool { return n.is(hclsyntax.TokenQuestion) }); len(q) > 0 {
		return cut(find(func(n *exprNode) bool {
			return n.is(hclsyntax.TokenQuestion) || n.is(hclsyntax.TokenColon)
		}), false), true
	}
	for _, ops := range [][]hclsyntax.TokenType{
		{hclsyntax.TokenOr},
		{hclsyntax.TokenAnd},
		{hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq,
			hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq},
	} {
		at := find(func(n *exprNode) bool {
			for _, op := range ops {
				if n.is(op) {
					return true
				}
			}
			return false
		})
		if len(at) > 0 {
			return cut(at, false), false
		}
	}
	return [][]exprNode{nodes}, false
}
