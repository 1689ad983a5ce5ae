package readers

import "github.com/prerel/prerel/engine"

// All returns the policies of this package in their catalogue order:
// terraform-ls, tfupdate, opentofu-engine. Each call returns a new slice.
func All() []engine.Policy {
	return []engine.Policy{TerraformLS{}, TFUpdate{}, OpenTofuEngine{}}
}
