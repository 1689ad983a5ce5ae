package adapters

import "github.com/prerel/prerel/engine"

func init() {
	for _, p := range All() {
		engine.MustRegister(p)
	}
}

// All returns the adapters in registration order: hashicorp,
// apparentlymart, apparentlymart-exact, masterminds, masterminds-pre,
// terraform-module, opentofu-module. Each call returns a new slice.
func All() []engine.Policy {
	return []engine.Policy{
		HashiCorp{},
		ApparentlyMart{},
		ApparentlyMart{Exact: true},
		Masterminds{},
		Masterminds{IncludePrerelease: true},
		ModuleInstaller{},
		ModuleInstaller{OpenTofu: true},
	}
}
