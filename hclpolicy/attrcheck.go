package hclpolicy

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/suggest"
)

// checkAttributes reports every attribute an expression reads from
// version, constraint, a comparator or a version object that the object
// does not have, with the closest name it has. It reads the expression's
// text only, without evaluating it, so that an attribute read in a branch
// that the checks with values never take is found too. It follows
// traversals from version and constraint, indexes and splats of their
// lists, for expressions over them, and parse_version.
func checkAttributes(expr hcl.Expression, seesVersion bool) hcl.Diagnostics {
	syn, ok := expr.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	scope := map[string]cty.Type{varConstraint: constraintType}
	if seesVersion {
		scope[varVersion] = versionType
	}
	c := &attrChecker{scopes: []map[string]cty.Type{scope}}
	_ = hclsyntax.Walk(syn, c)
	return c.diags
}

// attrChecker walks an expression with the types of the variables in
// scope.
type attrChecker struct {
	scopes []map[string]cty.Type
	splats []cty.Type // the element types of the splats being walked
	diags  hcl.Diagnostics
}

func (c *attrChecker) lookup(name string) (cty.Type, bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if t, ok := c.scopes[i][name]; ok {
			return t, true
		}
	}
	return cty.NilType, false
}

func (c *attrChecker) Enter(n hclsyntax.Node) hcl.Diagnostics {
	switch n := n.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if t, ok := c.lookup(n.Traversal.RootName()); ok {
			c.follow(t, n.Traversal[1:], n.Traversal.RootName())
		}
	case *hclsyntax.RelativeTraversalExpr:
		if t, ok := c.typeOf(n.Source); ok {
			c.follow(t, n.Traversal, "")
		}
	case *hclsyntax.ForExpr:
		scope := map[string]cty.Type{}
		// A name the for expression binds hides the outer one, whatever
		// its type.
		scope[n.ValVar] = cty.DynamicPseudoType
		if n.KeyVar != "" {
			scope[n.KeyVar] = cty.DynamicPseudoType
		}
		if t, ok := c.typeOf(n.CollExpr); ok && (t.IsListType() || t.IsSetType()) {
			scope[n.ValVar] = t.ElementType()
			if n.KeyVar != "" {
				scope[n.KeyVar] = cty.Number
			}
		}
		c.scopes = append(c.scopes, scope)
	case *hclsyntax.SplatExpr:
		et := cty.DynamicPseudoType
		if t, ok := c.typeOf(n.Source); ok && (t.IsListType() || t.IsSetType()) {
			et = t.ElementType()
		}
		c.splats = append(c.splats, et)
	}
	return nil
}

func (c *attrChecker) Exit(n hclsyntax.Node) hcl.Diagnostics {
	switch n.(type) {
	case *hclsyntax.ForExpr:
		c.scopes = c.scopes[:len(c.scopes)-1]
	case *hclsyntax.SplatExpr:
		c.splats = c.splats[:len(c.splats)-1]
	}
	return nil
}

// typeOf is the type of e when the checker knows it without evaluating.
func (c *attrChecker) typeOf(e hclsyntax.Expression) (cty.Type, bool) {
	switch e := e.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		t, ok := c.lookup(e.Traversal.RootName())
		if !ok {
			return cty.NilType, false
		}
		return resolve(t, e.Traversal[1:])
	case *hclsyntax.RelativeTraversalExpr:
		t, ok := c.typeOf(e.Source)
		if !ok {
			return cty.NilType, false
		}
		return resolve(t, e.Traversal)
	case *hclsyntax.IndexExpr:
		t, ok := c.typeOf(e.Collection)
		if ok && t.IsListType() {
			return t.ElementType(), true
		}
	case *hclsyntax.ParenthesesExpr:
		return c.typeOf(e.Expression)
	case *hclsyntax.AnonSymbolExpr:
		if len(c.splats) > 0 {
			return c.splats[len(c.splats)-1], true
		}
	case *hclsyntax.FunctionCallExpr:
		if e.Name == "parse_version" && !e.ExpandFinal {
			return versionType, true
		}
		if e.Name == chargeFunc && len(e.Args) > 0 {
			return c.typeOf(e.Args[0])
		}
	}
	return cty.NilType, false
}

// resolve is the type that steps lead to from a value of type t, when it
// is known.
func resolve(t cty.Type, steps hcl.Traversal) (cty.Type, bool) {
	for _, s := range steps {
		switch s := s.(type) {
		case hcl.TraverseAttr:
			if !t.IsObjectType() || !t.HasAttribute(s.Name) {
				return cty.NilType, false
			}
			t = t.AttributeType(s.Name)
		case hcl.TraverseIndex:
			if !t.IsListType() {
				return cty.NilType, false
			}
			t = t.ElementType()
		default:
			return cty.NilType, false
		}
		if t == cty.DynamicPseudoType {
			return cty.NilType, false
		}
	}
	return t, true
}

// follow reports the first attribute of steps that a value of type t
// does not have. root names the variable the traversal starts at, or is
// "".
func (c *attrChecker) follow(t cty.Type, steps hcl.Traversal, root string) {
	for _, s := range steps {
		switch s := s.(type) {
		case hcl.TraverseAttr:
			if t == cty.DynamicPseudoType || !t.IsObjectType() {
				return
			}
			if !t.HasAttribute(s.Name) {
				c.diags = append(c.diags, unknownAttribute(t, s, root))
				return
			}
			t = t.AttributeType(s.Name)
		case hcl.TraverseIndex:
			if !t.IsListType() {
				return
			}
			t = t.ElementType()
		default:
			return
		}
		root = ""
	}
}

// unknownAttribute is the error for the attribute s, which an object of
// type t does not have.
func unknownAttribute(t cty.Type, s hcl.TraverseAttr, root string) *hcl.Diagnostic {
	what := objectName(t)
	switch root {
	case "":
	case varVersion, varConstraint:
		what = root
	default:
		what = fmt.Sprintf("%s (%s)", root, strings.ToLower(what[:1])+what[1:])
	}
	names := make([]string, 0, len(t.AttributeTypes()))
	for n := range t.AttributeTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	detail := fmt.Sprintf("%s has no attribute named %q.", what, s.Name)
	if m := suggest.Closest(s.Name, names); m != "" {
		detail += fmt.Sprintf(" Did you mean %q?", m)
	} else {
		detail += fmt.Sprintf(" Its attributes are %s.", joinNames(names))
	}
	return diag.ErrorAt(s.SrcRange.Ptr(), "Unsupported attribute", detail)
}

// objectName names an object of type t for a message.
func objectName(t cty.Type) string {
	switch {
	case t.Equals(versionType):
		return "A version object"
	case t.Equals(comparatorType):
		return "A comparator object"
	case t.Equals(constraintType):
		return "The constraint object"
	}
	return "This object"
}

// joinNames writes names as a list: "a, b and c".
func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += " and "
		default:
			s += ", "
		}
		s += n
	}
	return s
}
