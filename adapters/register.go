package adapters

import "github.com/prerel/prerel/engine"

// All returns the adapters in their catalogue order: hashicorp,
// apparentlymart, apparentlymart-exact, masterminds, masterminds-pre,
// terraform-module, opentofu-module, go-versions-cargo. Nothing registers
// them by itself: package catalogue registers them, after the native
// policies, into a registry it is handed. Each call returns a new slice.
func All() []engine.Policy {
	return []engine.Policy{
		HashiCorp{},
		ApparentlyMart{},
		ApparentlyMart{Exact: true},
		Masterminds{},
		Masterminds{IncludePrerelease: true},
		ModuleInstaller{},
		ModuleInstaller{OpenTofu: true},
		GoVersionsCargo{},
	}
}
