package policyconfig

import (
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// An Override is one setting of the command line: Name is the call path
// or provider source address it is for, Value the policy or version,
// Flag the flag as written, its Origin ("--module-policy vpc=cargo").
type Override struct{ Name, Value, Flag string }

// Overrides are the settings a command line gives over the file's.
type Overrides struct {
	// Default is the default policy (Value; Name is unused), none when
	// Value is "".
	Default Override
	// Modules and Providers are the policies of module calls and of
	// providers.
	Modules, Providers []Override
	// Wants are the exact versions wanted: of a provider when Name holds
	// a slash (a source address; a call path never does), else of a
	// module call.
	Wants []Override
	// MinAge, when not nil, is the minimum age of every choice, from the
	// flag MinAgeFlag ("--min-age 7d"); AllowUndatedFlag, when not "",
	// lets undated versions through, from that flag.
	MinAge                       *time.Duration
	MinAgeFlag, AllowUndatedFlag string
}

// Apply sets o over c's settings, in the order of the fields of
// Overrides (SetDefault, SetModule, SetProvider, SetModuleWant or
// SetProviderWant, SetCooldown), and returns the diagnostics of all,
// so that every mistake is reported at once. The cooldown's origin is
// MinAgeFlag when MinAge is set, else AllowUndatedFlag.
func (c *Config) Apply(o Overrides) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if o.Default.Value != "" {
		diags = append(diags, c.SetDefault(o.Default.Value, FlagOrigin(o.Default.Flag))...)
	}
	for _, m := range o.Modules {
		diags = append(diags, c.SetModule(m.Name, m.Value, FlagOrigin(m.Flag))...)
	}
	for _, p := range o.Providers {
		diags = append(diags, c.SetProvider(p.Name, p.Value, FlagOrigin(p.Flag))...)
	}
	for _, w := range o.Wants {
		if strings.Contains(w.Name, "/") {
			diags = append(diags, c.SetProviderWant(w.Name, w.Value, FlagOrigin(w.Flag))...)
		} else {
			diags = append(diags, c.SetModuleWant(w.Name, w.Value, FlagOrigin(w.Flag))...)
		}
	}
	var undated *bool
	if o.AllowUndatedFlag != "" {
		undated = new(bool)
		*undated = true
	}
	origin := FlagOrigin(o.AllowUndatedFlag)
	if o.MinAge != nil {
		origin = FlagOrigin(o.MinAgeFlag)
	}
	if o.MinAge != nil || undated != nil {
		c.SetCooldown(o.MinAge, undated, origin)
	}
	return diags
}
