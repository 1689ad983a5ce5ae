package credentials

import (
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/terraform/registry"
)

// SourceOptions say where versions come from, as prerel's --index,
// --registry-url, --timeout, --retries and --registry-deadline give it,
// and what of Terraform's own configuration applies.
type SourceOptions struct {
	// Index, when set, is the offline index file to read versions from
	// (registry.LoadIndex); the rest is then unused.
	Index string
	// BaseURL and HostURLs are those of the registry.Client.
	BaseURL  string
	HostURLs map[string]string
	// Timeout and Deadline are those of the registry.Client.
	Timeout, Deadline time.Duration
	// Retries is how many times a 429 or 5xx answer is retried: 0 for
	// none, unlike registry.Client.Retries.
	Retries int
	// Environ lists the environment as os.Environ does, for the tokens
	// and the CLI configuration; nil reads neither.
	Environ func() []string
	// CLIConfig adds what Terraform's CLI configuration says, as
	// terraform init run in WorkDir would read it.
	CLIConfig bool
	WorkDir   string
}

// NewSource returns the source of versions opt names: the offline index,
// or a registry client with the tokens of the environment as Terraform
// reads them (Load). With CLIConfig, the client also takes the CLI
// configuration's host blocks, and its provider_installation block or
// the implied local mirror directories, as terraform init reads them
// (LoadCLIConfig, CLIConfig.ProviderInstallation); BaseURL leaves the CLI
// configuration unused, and HostURLs leaves it unused for the hosts it
// names. The diagnostics are those of the CLI configuration, which
// Terraform makes warnings; the error is the index's.
func NewSource(opt SourceOptions) (registry.Source, hcl.Diagnostics, error) {
	if opt.Index != "" {
		x, err := registry.LoadIndex(opt.Index)
		if err != nil {
			return nil, nil, err
		}
		return x, nil, nil
	}
	r := opt.Retries
	if r == 0 {
		r = -1 // none
	}
	c := &registry.Client{BaseURL: opt.BaseURL, HostURLs: opt.HostURLs, Timeout: opt.Timeout, Deadline: opt.Deadline, Retries: r}
	if opt.Environ == nil {
		return c, nil, nil
	}
	if !opt.CLIConfig || c.BaseURL != "" {
		// A file that cannot be read is named, with its error, in the
		// hint that follows a 401 or 403.
		creds, _ := Load(opt.Environ())
		c.Credentials = creds
		return c, nil, nil
	}
	cfg, diags := LoadCLIConfig(opt.Environ())
	c.Credentials = cfg.Credentials
	c.HostBlocks = cfg.HostBlocks
	return cfg.ProviderInstallation(c, opt.WorkDir, c.Maps), diags, nil
}
