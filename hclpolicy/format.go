package hclpolicy

import (
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// maxShown bounds a value as an explanation shows it.
const maxShown = 600

// show writes v on one line in HCL's notation: strings quoted, lists in
// brackets, objects in braces with their attributes in name order. A
// version object inside another value is shown by its text alone, as
// version("1.2.0-beta"), so that a constraint stays readable.
func show(v cty.Value) string {
	var b strings.Builder
	write(&b, v, 0)
	s := b.String()
	if len(s) > maxShown {
		s = s[:maxShown-3] + "..."
	}
	return s
}

func write(b *strings.Builder, v cty.Value, depth int) {
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
	case t.Equals(constraintType):
		b.WriteString(describeConstraint(v))
	case depth > 0 && t.Equals(versionType):
		b.WriteString("version(")
		write(b, v.GetAttr("text"), depth+1)
		b.WriteString(")")
	case t.IsListType(), t.IsSetType(), t.IsTupleType():
		b.WriteString("[")
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, e, depth+1)
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
			write(b, e, depth+1)
		}
		b.WriteString("}")
	default:
		b.WriteString(t.FriendlyName())
	}
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
