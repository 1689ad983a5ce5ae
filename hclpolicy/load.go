package hclpolicy

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/suggest"
)

// Options tunes Load and Decode. The zero Options is ready to use.
type Options struct {
	// Command builds the policy of a block that has a command attribute:
	// name is the block's label, argv the command's words, rng the place
	// of the command attribute's value, for its diagnostics. When it is
	// nil, such a block is an error: "command policies are not available
	// here".
	Command func(name string, argv []string, rng hcl.Range) (engine.Policy, hcl.Diagnostics)
	// Sources are the files' contents by file name, as
	// hclparse.Parser.Sources returns them, so that explanations and the
	// default rule can quote the expressions. Load fills it for the file
	// it reads; Decode without it shows an expression by its place.
	Sources map[string][]byte
}

// BlockHeader is the header schema of a policy block. A file that holds
// policy blocks next to its own settings (prerel.hcl) adds it to the
// schema it reads its body with, so that its own Content does not refuse
// the blocks, and hands the same body to Decode.
var BlockHeader = hcl.BlockHeaderSchema{Type: "policy", LabelNames: []string{"name"}}

// The attributes of a policy block.
const (
	attrRule         = "rule"
	attrAdmit        = "admit"
	attrSelect       = "select"
	attrRefuse       = "refuse"
	attrRefuseReason = "refuse_reason"
	attrCommand      = "command"
)

// The select values.
const (
	SelectNewest   = "newest"
	SelectFallback = "fallback"
)

var (
	fileSchema   = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{BlockHeader}}
	policySchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: attrRule}, {Name: attrAdmit}, {Name: attrSelect},
		{Name: attrRefuse}, {Name: attrRefuseReason}, {Name: attrCommand},
	}}
)

// Load reads the policy file at path and decodes its policy blocks. The
// file is read through internal/hclread: a regular file of bounded size
// and nesting. A name ending in ".json" is read in HCL's JSON syntax,
// any other in the native syntax. A policy file holds policy blocks
// only: anything else in it, and a file with no policy block, is an
// error. The policies are nil when there is an error.
func Load(path string, opt Options) ([]*Policy, hcl.Diagnostics) {
	src, d := hclread.ReadFile(path, "Cannot read the policy file")
	if d != nil {
		return nil, hcl.Diagnostics{d}
	}
	var file *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		file, diags = hclread.ParseJSON(src, path)
	} else {
		file, diags = hclread.ParseHCL(src, path)
	}
	if file == nil || file.Body == nil || diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	sources := map[string][]byte{path: src}
	for name, s := range opt.Sources {
		if name != path {
			sources[name] = s
		}
	}
	opt.Sources = sources
	content, more := file.Body.Content(fileSchema)
	diags = append(diags, more...)
	if content == nil {
		return nil, diag.Dedupe(diags)
	}
	if len(content.Blocks) == 0 && !diags.HasErrors() {
		diags = append(diags, diag.ErrorAt(&hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos},
			"No policy in the policy file", `A policy file holds one or more blocks policy "NAME" { ... }.`))
	}
	ps, more := decodeBlocks(content.Blocks, opt)
	diags = append(diags, more...)
	if diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	return ps, diags
}

// Decode decodes the policy blocks of body and ignores everything else
// in it (it reads body with PartialContent), so that a file such as
// prerel.hcl can hold policy blocks next to its own settings: its reader
// decodes its own schema with BlockHeader added, and hands the whole body
// to Decode. A body with no policy block gives no policies and no error.
// The policies are nil when there is an error.
func Decode(body hcl.Body, opt Options) ([]*Policy, hcl.Diagnostics) {
	if body == nil {
		return nil, nil
	}
	content, _, diags := body.PartialContent(fileSchema)
	if content == nil {
		return nil, diag.Dedupe(diags)
	}
	ps, more := decodeBlocks(content.Blocks, opt)
	diags = append(diags, more...)
	if diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	return ps, diags
}

// CheckNames reports each policy whose name a registered policy already
// has, at the block's label. A policy that is itself the registered one
// is no clash.
func CheckNames(ps []*Policy, reg *engine.Registry) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range ps {
		if p == nil {
			continue
		}
		q, ok := reg.Lookup(p.name)
		if !ok || q == engine.Policy(p) {
			continue
		}
		what := fmt.Sprintf("a registered policy (%s)", engine.ClipReason(q.Rule()))
		if other, ok := q.(*Policy); ok {
			what = "a policy declared at " + diag.FormatRange(other.nameRng)
		}
		diags = append(diags, diag.ErrorAt(p.nameRng.Ptr(), "Policy name already registered",
			fmt.Sprintf("%q is the name of %s; give this policy another name, for example %q.",
				p.name, what, "my-"+p.name)))
	}
	return diags
}

// decodeBlocks decodes policy blocks, every mistake reported.
func decodeBlocks(blocks hcl.Blocks, opt Options) ([]*Policy, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var out []*Policy
	seen := map[string]hcl.Range{}
	for _, b := range blocks {
		if len(b.Labels) != 1 || len(b.LabelRanges) != 1 {
			continue // the schema has refused it already
		}
		name, at := b.Labels[0], b.LabelRanges[0]
		if err := checkName(name); err != "" {
			diags = append(diags, diag.ErrorAt(at.Ptr(), "Invalid policy name", err))
			continue
		}
		if prev, dup := seen[name]; dup {
			diags = append(diags, diag.ErrorAt(at.Ptr(), "Duplicate policy",
				fmt.Sprintf("A policy named %q is already declared at %s.", name, diag.FormatRange(prev))))
			continue
		}
		seen[name] = at
		p, more := decodeBlock(b, opt)
		diags = append(diags, more...)
		if p != nil {
			out = append(out, p)
		}
	}
	return out, diags
}

// checkName returns why name cannot name a policy, or "".
func checkName(name string) string {
	if name == "" {
		return "A policy name must not be empty."
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Sprintf("%q: a policy name has only lower case letters, digits and '-'.", name)
		}
	}
	return ""
}

// decodeBlock decodes one policy block.
func decodeBlock(b *hcl.Block, opt Options) (*Policy, hcl.Diagnostics) {
	content, diags := b.Body.Content(policySchema)
	if content == nil {
		return nil, diags
	}
	attrs := content.Attributes
	p := &Policy{name: b.Labels[0], nameRng: b.LabelRanges[0], defRng: b.DefRange, sources: opt.Sources}

	rule, ruleSet := "", false
	if a := attrs[attrRule]; a != nil {
		var more hcl.Diagnostics
		rule, more = staticString(a, "rule")
		diags = append(diags, more...)
		if !more.HasErrors() {
			ruleSet = true
			if strings.TrimSpace(rule) == "" || strings.ContainsAny(rule, "\r\n") {
				diags = append(diags, diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid rule", "The rule is one line of text, as prerel policies lists it."))
			}
		}
	}

	admit, command := attrs[attrAdmit], attrs[attrCommand]
	switch {
	case admit != nil && command != nil:
		diags = append(diags, diag.ErrorAt(command.NameRange.Ptr(), "Both admit and command",
			"A policy is either an admit expression or an external command, not both."))
		return nil, diags
	case admit == nil && command == nil:
		diags = append(diags, diag.ErrorAt(b.DefRange.Ptr(), "Missing admit or command",
			fmt.Sprintf("The policy %q needs an admit expression (admit = satisfies(constraint, version), for example) or a command (command = [\"python3\", \"rule.py\"]).", p.name)))
		return nil, diags
	case command != nil:
		for _, name := range []string{attrSelect, attrRefuse, attrRefuseReason} {
			if a := attrs[name]; a != nil {
				diags = append(diags, diag.ErrorAt(a.NameRange.Ptr(), "Unexpected "+name+" in a command policy",
					"A command policy takes rule and command only: the command decides every verdict."))
			}
		}
		cp, more := decodeCommand(p.name, command, opt)
		diags = append(diags, more...)
		if cp == nil || diags.HasErrors() {
			return nil, diags
		}
		p.command = cp
		p.rule = cp.Rule()
		if ruleSet {
			p.rule = rule
		}
		return p, diags
	}

	if a := attrs[attrSelect]; a != nil {
		sel, more := staticString(a, "select")
		diags = append(diags, more...)
		switch {
		case more.HasErrors():
		case sel == SelectFallback:
			p.fallback = true
		case sel == SelectNewest:
		default:
			diags = append(diags, diag.ErrorAt(a.Expr.Range().Ptr(), "Unknown select value",
				fmt.Sprintf("select is %q or %q, not %q.", SelectNewest, SelectFallback, sel)))
		}
	}

	admitExpr := native(admit.Expr, opt.Sources)
	guard(admitExpr)
	diags = append(diags, checkExpr(admitExpr, attrAdmit, true, cty.Bool)...)
	p.admit = admitExpr
	if syn, ok := admitExpr.(hclsyntax.Expression); ok && !diags.HasErrors() {
		// (A policy with errors is not used: its plan and its reasons
		// are not worked out.)
		p.plan = newPlan(syn)
		p.dec = newDecision(syn, opt.Sources)
		for _, o := range p.dec.operands {
			p.dec.runOperands = append(p.dec.runOperands, direct(o))
		}
	}
	p.admitRun = forRun(p.admit)
	if a := attrs[attrRefuse]; a != nil {
		e := native(a.Expr, opt.Sources)
		guard(e)
		diags = append(diags, checkExpr(e, attrRefuse, false, cty.Bool)...)
		p.refuse = e
	}
	if a := attrs[attrRefuseReason]; a != nil {
		if p.refuse == nil {
			diags = append(diags, diag.ErrorAt(a.NameRange.Ptr(), "refuse_reason without refuse",
				"refuse_reason is the reason given when refuse is true; add refuse or remove it."))
		}
		e := native(a.Expr, opt.Sources)
		guard(e)
		diags = append(diags, checkExpr(e, attrRefuseReason, false, cty.String)...)
		p.refuseReason = e
	}
	p.rule = rule
	if !ruleSet {
		p.rule = defaultRule(p.admit, opt.Sources)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return p, diags
}

// native returns expr in HCL's native syntax, so that guard can count
// what it iterates over: an expression of HCL's JSON syntax that is a
// string is the template HCL reads it as when it evaluates it, parsed
// the same way and at the same place, and a template that is one
// interpolation alone ("${X}") is X, which it gives as it is. Any other
// expression, and one whose text is not in sources, is expr.
func native(expr hcl.Expression, sources map[string][]byte) hcl.Expression {
	if _, ok := expr.(hclsyntax.Expression); ok {
		return expr
	}
	src := exprSource(expr, sources)
	var text string
	if len(src) < 2 || src[0] != '"' || json.Unmarshal([]byte(src), &text) != nil {
		return expr
	}
	rng := expr.Range()
	t, diags := hclsyntax.ParseTemplate([]byte(text), rng.Filename,
		hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + 1, Byte: rng.Start.Byte + 1})
	if diags.HasErrors() {
		return expr
	}
	if w, ok := t.(*hclsyntax.TemplateWrapExpr); ok {
		return w.Wrapped
	}
	return t
}

// decodeCommand reads a command attribute and hands it to opt.Command.
func decodeCommand(name string, a *hcl.Attribute, opt Options) (engine.Policy, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	rng := a.Expr.Range()
	var argv []string
	t := v.Type()
	ok := v.IsKnown() && !v.IsNull() && (t.IsListType() || t.IsTupleType())
	if ok {
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if !e.IsKnown() || e.IsNull() || e.Type() != cty.String {
				ok = false
				break
			}
			argv = append(argv, e.AsString())
		}
	}
	if !ok || len(argv) == 0 || argv[0] == "" {
		return nil, append(diags, diag.ErrorAt(&rng, "Invalid command",
			`command is a list of strings: the program and its arguments, such as ["python3", "rule.py"].`))
	}
	if opt.Command == nil {
		return nil, append(diags, diag.ErrorAt(&rng, "command policies are not available here",
			fmt.Sprintf("The policy %q runs a command, and this program cannot run command policies.", name)))
	}
	p, more := opt.Command(name, argv, rng)
	diags = append(diags, more...)
	if p == nil && !more.HasErrors() {
		diags = append(diags, diag.ErrorAt(&rng, "Invalid command policy",
			fmt.Sprintf("No policy was built for the command of %q.", name)))
	}
	return p, diags
}

// staticString reads an attribute whose value is a constant string.
func staticString(a *hcl.Attribute, what string) (string, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", append(diags, diag.ErrorAt(a.Expr.Range().Ptr(), "Invalid "+what,
			fmt.Sprintf("%s must be a string, not %s.", what, describeType(v))))
	}
	return v.AsString(), diags
}

// maxRule bounds a default rule: the admit expression on one line.
const maxRule = 160

// defaultRule is the rule of a block without one: its admit expression
// on one line.
func defaultRule(expr hcl.Expression, sources map[string][]byte) string {
	src := exprSource(expr, sources)
	if src == "" {
		return "an HCL admit expression at " + diag.FormatRange(expr.Range())
	}
	return "admit = " + engine.ClipReason(shorten(strings.Join(strings.Fields(src), " "), maxRule))
}

// shorten cuts s to at most n bytes, with "..." at the end when cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}

// exprSource returns the text of expr in its file, or "" when the file's
// contents are not known.
func exprSource(expr hcl.Expression, sources map[string][]byte) string {
	return rangeSource(expr.Range(), sources)
}

func rangeSource(r hcl.Range, sources map[string][]byte) string {
	src, ok := sources[r.Filename]
	if !ok || r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(src[r.Start.Byte:r.End.Byte])
}

// The variables an expression sees.
const (
	varVersion    = "version"
	varConstraint = "constraint"
)

// maxIndexDigits bounds the digits of a number written as an index in a
// traversal (x[N], x.N), written out.
const maxIndexDigits = 64

// checkIndexes reports each number written as an index in t that is
// longer than maxIndexDigits written out: HCL writes an index out to look
// it up in a map or an object each time the traversal is evaluated, and
// an index in a traversal is a literal, which guard cannot wrap in a
// charge (an index that is an expression is charged, see convertCall).
func checkIndexes(t hcl.Traversal) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, step := range t {
		ix, ok := step.(hcl.TraverseIndex)
		if !ok || ix.Key.Type() != cty.Number || !ix.Key.IsKnown() || ix.Key.IsNull() {
			continue
		}
		if d := numberDigits(ix.Key.AsBigFloat()); d > maxIndexDigits {
			diags = append(diags, diag.ErrorAt(ix.SrcRange.Ptr(), "Index too long",
				fmt.Sprintf("An index written as a number is at most %d digits long written out; this one is about %d digits long.", maxIndexDigits, d)))
		}
	}
	return diags
}

// checkExpr checks an expression of a policy block when the file is
// loaded: it names only the variables it sees (version and constraint;
// refuse and refuse_reason only constraint), only known functions and
// only attributes that the objects have (see checkAttributes),
// it evaluates without error against values of the right types, and it
// gives a value of type want. The check evaluates it with unknown values
// and with a few concrete cases; an error on a concrete case is reported
// only when it is about the expression itself (an attribute, variable or
// function that does not exist, or a result of the wrong type), since
// other errors belong to that case.
func checkExpr(expr hcl.Expression, attr string, seesVersion bool, want cty.Type) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, t := range expr.Variables() {
		root := t.RootName()
		rng := t.SourceRange()
		switch {
		case root == varConstraint || root == varVersion && seesVersion:
		case root == varVersion:
			diags = append(diags, diag.ErrorAt(&rng, "version is not available in "+attr,
				attr+" decides whether the whole constraint is refused, before any version is judged: it sees constraint only."))
		default:
			seen := "version and constraint"
			if !seesVersion {
				seen = "constraint only"
			}
			detail := fmt.Sprintf("There is no variable named %q; %s sees %s.", root, attr, seen)
			if s := suggest.Closest(root, []string{varVersion, varConstraint}); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			}
			diags = append(diags, diag.ErrorAt(&rng, "Unknown variable", detail))
		}
	}
	diags = append(diags, checkAttributes(expr, seesVersion)...)
	if syn, ok := expr.(hclsyntax.Expression); ok {
		hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
			switch t := n.(type) {
			case *hclsyntax.ScopeTraversalExpr:
				diags = append(diags, checkIndexes(t.Traversal)...)
			case *hclsyntax.RelativeTraversalExpr:
				diags = append(diags, checkIndexes(t.Traversal)...)
			}
			call, ok := n.(*hclsyntax.FunctionCallExpr)
			if !ok {
				return nil
			}
			if _, known := functions[call.Name]; known || hidden(call) {
				return nil
			}
			detail := fmt.Sprintf("There is no function named %q.", call.Name)
			if s := suggest.Closest(call.Name, functionNames); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			}
			diags = append(diags, diag.ErrorAt(call.NameRange.Ptr(), "Call to unknown function", detail))
			return nil
		})
	}
	if diags.HasErrors() {
		return diags
	}

	vars := map[string]cty.Value{varConstraint: unknownConstraint}
	if seesVersion {
		vars[varVersion] = unknownVersion
	}
	v, more := evalExpr(expr, vars)
	if more.HasErrors() && !isBudgetDiag(more[0]) {
		return append(diags, more...)
	}
	if d := checkType(expr, attr, v, want); d != nil && !more.HasErrors() {
		return append(diags, d)
	}
	for _, pair := range samplePairs {
		c := engine.MustParseConstraint(pair[0])
		vars := map[string]cty.Value{varConstraint: constraintValue(c)}
		if seesVersion {
			vars[varVersion] = versionValue(engine.MustParseVersion(pair[1]), pair[1])
		}
		v, more := evalExpr(expr, vars)
		structural := false
		for _, d := range more {
			if d.Severity == hcl.DiagError && structuralSummaries[d.Summary] {
				diags = append(diags, d)
				structural = true
			}
		}
		if structural {
			return diags
		}
		if !more.HasErrors() {
			if d := checkType(expr, attr, v, want); d != nil {
				return append(diags, d)
			}
		}
	}
	return diags
}

// structuralSummaries are the summaries of HCL's errors that are about
// an expression itself, whatever the case it judges.
var structuralSummaries = map[string]bool{
	"Unsupported attribute":             true,
	"Unknown variable":                  true,
	"Call to unknown function":          true,
	"Variables not allowed":             true,
	"Function calls not allowed":        true,
	"Invalid for_each argument":         true,
	"Iteration over non-iterable value": true,
}

// checkType returns the error for an expression that gave a value of
// another type than want, or nil.
func checkType(expr hcl.Expression, attr string, v cty.Value, want cty.Type) *hcl.Diagnostic {
	t := v.Type()
	if t.Equals(want) || t == cty.DynamicPseudoType {
		return nil
	}
	kind, what := "a bool", "true or false"
	if want == cty.String {
		kind, what = "a string", "a string"
	}
	return diag.ErrorAt(expr.Range().Ptr(), fmt.Sprintf("%s must be %s", attr, kind),
		fmt.Sprintf("The %s expression gives %s; it must give %s.", attr, describeType(v), what))
}
