package credentials

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"

	hcl1 "github.com/hashicorp/hcl"
	hcl1ast "github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/v2"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/terraform/registry"
)

// fileSettings is what one CLI configuration file says about where
// versions come from.
type fileSettings struct {
	// hosts maps each host with a valid host block to it.
	hosts map[svchost.Hostname]registry.HostBlock
	// installs are the file's provider_installation blocks, in order.
	installs []*Installation
	// diags report the errors in host and provider_installation blocks,
	// which Load does not report.
	diags hcl.Diagnostics
}

// Installation is a provider_installation block of the CLI
// configuration, its methods in order. A method with an error is left
// out, as Terraform leaves it out.
type Installation struct {
	// Place is where the block is, "FILE:LINE".
	Place        string
	Methods      []registry.InstallMethod
	DevOverrides []registry.DevOverride
}

// place returns "FILE:LINE" for a position in the file at path, or FILE
// when the line is not known.
func place(path string, line int) string {
	if line <= 0 {
		// HCL 1 keeps no positions in JSON.
		return path
	}
	return path + ":" + strconv.Itoa(line)
}

// decodeHosts reads the host blocks Terraform decoded into hosts: an
// invalid host name is reported at its block and the block left out, as
// Terraform leaves it out. Of two spellings of one host in one file, the
// later in sort order wins.
func decodeHosts(path string, list *hcl1ast.ObjectList, hosts map[string]*cliHost) (map[svchost.Hostname]registry.HostBlock, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	out := map[svchost.Hostname]registry.HostBlock{}
	given := make([]string, 0, len(hosts))
	for h := range hosts {
		given = append(given, h)
	}
	sort.Strings(given)
	for _, h := range given {
		r := blockRange(path, list, "host", h)
		host, err := svchost.ForComparison(h)
		if err != nil {
			diags = append(diags, diag.ErrorAt(r, "Invalid host block",
				fmt.Sprintf("the host %s block has an invalid host name: %s", strconv.Quote(h), err)))
			continue
		}
		var services map[string]any
		if hosts[h] != nil {
			services = hosts[h].Services
		}
		out[host] = registry.HostBlock{Services: services, Place: place(path, r.Start.Line)}
	}
	return out, diags
}

// decodeInstallations reads the provider_installation blocks of a file,
// with the rules and the strictness of Terraform's decoder (its
// decodeProviderInstallationFromConfig), each error reported at its file,
// line and column. environ is the environment dev_overrides paths expand
// from.
func decodeInstallations(path string, list *hcl1ast.ObjectList, lookup func(string) (string, bool)) ([]*Installation, hcl.Diagnostics) {
	var out []*Installation
	var diags hcl.Diagnostics
	if list == nil {
		return nil, nil
	}
	errAt := func(line, col int, summary, detail string) {
		diags = append(diags, diag.ErrorAt(fileRange(path, line, col), summary, detail))
	}
	const badBlock, badMethod = "Invalid provider_installation block", "Invalid provider_installation method block"
	for _, block := range list.Items {
		if len(block.Keys) == 0 || keyText(block.Keys[0]) != "provider_installation" {
			continue
		}
		pos := block.Pos()
		isJSON := block.Keys[0].Token.JSON
		if block.Assign.Line != 0 && !isJSON {
			errAt(pos.Line, pos.Column, badBlock, "the provider_installation block must not be introduced with an equals sign")
			continue
		}
		if len(block.Keys) > 1 && !isJSON {
			errAt(pos.Line, pos.Column, badBlock, "the provider_installation block must not have any labels")
		}
		body, ok := block.Val.(*hcl1ast.ObjectType)
		if !ok {
			errAt(pos.Line, pos.Column, badBlock, "the provider_installation block must not be introduced with an equals sign")
			continue
		}
		pi := &Installation{Place: place(path, pos.Line)}
		for _, mb := range body.List.Items {
			mpos := mb.Pos()
			if mb.Assign.Line != 0 && !isJSON {
				errAt(mpos.Line, mpos.Column, badMethod, "the items inside the provider_installation block must all be blocks")
				continue
			}
			if len(mb.Keys) > 1 && !isJSON {
				errAt(mpos.Line, mpos.Column, badMethod, "the blocks inside the provider_installation block may not have any labels")
			}
			mbody, ok := mb.Val.(*hcl1ast.ObjectType)
			if !ok || len(mb.Keys) == 0 {
				errAt(mpos.Line, mpos.Column, badMethod, "the items inside the provider_installation block must all be blocks")
				continue
			}
			kind := keyText(mb.Keys[0])
			var content struct {
				Path    string   `hcl:"path"`
				URL     string   `hcl:"url"`
				Include []string `hcl:"include"`
				Exclude []string `hcl:"exclude"`
			}
			m := registry.InstallMethod{Place: place(path, mpos.Line)}
			switch kind {
			case "direct", "filesystem_mirror", "network_mirror":
				// Terraform decodes each kind into a struct of its own
				// arguments; one struct with all of them decodes alike,
				// as HCL 1 ignores unknown arguments.
				if err := hcl1.DecodeObject(&content, mbody); err != nil {
					errAt(mpos.Line, mpos.Column, badMethod, fmt.Sprintf("invalid %s block: %s", kind, cleanMessage(err.Error())))
					continue
				}
			case "dev_overrides":
				if len(pi.Methods) > 0 {
					errAt(mpos.Line, mpos.Column, badMethod, "the dev_overrides block must appear before all other installation methods, because development overrides always have the highest priority")
					continue
				}
				var raw map[string]string
				if err := hcl1.DecodeObject(&raw, mbody); err != nil {
					errAt(mpos.Line, mpos.Column, badMethod, fmt.Sprintf("invalid dev_overrides block: %s", cleanMessage(err.Error())))
					continue
				}
				addrs := make([]string, 0, len(raw))
				for a := range raw {
					addrs = append(addrs, a)
				}
				sort.Strings(addrs)
				for _, a := range addrs {
					line := mpos.Line
					if p := blockRange(path, mbody.List, "", a); p.Start.Line > 0 {
						line = p.Start.Line
					}
					p, err := tfaddr.ParseProviderSource(a)
					if err != nil {
						errAt(line, 0, "Invalid provider installation dev overrides",
							fmt.Sprintf("the entry %s is not a valid provider source string: %s", strconv.Quote(a), err))
						continue
					}
					missing := map[string]bool{}
					dir := os.Expand(raw[a], func(name string) string {
						v, ok := lookup(name)
						if !ok && !missing[name] {
							missing[name] = true
							errAt(line, 0, "Interpolated environment variable not set",
								fmt.Sprintf("the environment variable %s is not set or empty and can result in undesired behavior", name))
						}
						return v
					})
					pi.DevOverrides = append(pi.DevOverrides, registry.DevOverride{Provider: p, Dir: filepath.Clean(dir), Place: place(path, line)})
				}
				continue
			default:
				errAt(mpos.Line, mpos.Column, badMethod, fmt.Sprintf("unknown provider installation method %s", strconv.Quote(kind)))
				continue
			}
			switch kind {
			case "direct":
				m.Kind = registry.Direct
			case "filesystem_mirror":
				if content.Path == "" {
					errAt(mpos.Line, mpos.Column, badMethod, `invalid filesystem_mirror block: "path" argument is required`)
					continue
				}
				m.Kind, m.Location = registry.FilesystemMirror, content.Path
			case "network_mirror":
				if content.URL == "" {
					errAt(mpos.Line, mpos.Column, badMethod, `invalid network_mirror block: "url" argument is required`)
					continue
				}
				if _, err := registry.ParseMirrorURL(content.URL); err != nil {
					errAt(mpos.Line, mpos.Column, "Invalid URL for provider installation source", err.Error())
					continue
				}
				m.Kind, m.Location = registry.NetworkMirror, content.URL
			}
			var err error
			if m.Include, err = patterns(content.Include); err != nil {
				errAt(mpos.Line, mpos.Column, "Invalid provider source inclusion patterns", fmt.Sprintf("the %s block has invalid provider inclusion patterns: %s", kind, err))
				continue
			}
			if m.Exclude, err = patterns(content.Exclude); err != nil {
				errAt(mpos.Line, mpos.Column, "Invalid provider source exclusion patterns", fmt.Sprintf("the %s block has invalid provider exclusion patterns: %s", kind, err))
				continue
			}
			pi.Methods = append(pi.Methods, m)
		}
		out = append(out, pi)
	}
	return out, diags
}

// patterns parses the patterns of an include or exclude argument.
func patterns(ss []string) ([]registry.ProviderPattern, error) {
	var out []registry.ProviderPattern
	for _, s := range ss {
		p, err := registry.ParseProviderPattern(s)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// settingsData is what the CLI configuration files say about where
// versions come from, merged as Terraform merges them.
type settingsData struct {
	files      []string
	hosts      map[svchost.Hostname]registry.HostBlock
	installs   []*Installation
	pluginDirs []string
	diags      hcl.Diagnostics
}

// CLIConfig is what the CLI configuration of Terraform says about
// registries: the tokens, and where versions come from (host blocks and
// the provider_installation block). LoadCLIConfig makes one.
type CLIConfig struct {
	// Credentials are the tokens, as Load reads them.
	Credentials *Store
	// HostBlocks are the host blocks, keyed by host in the form hosts are
	// compared in (lower case, punycode, with a port only when it is not
	// 443). Of two blocks for one host, that of the file read later wins:
	// a file of the configuration directory over the CLI configuration
	// file, and the later in name order.
	HostBlocks map[string]registry.HostBlock
	// Installation is the provider_installation block that applies, the
	// first one read, as in Terraform; nil when there is none.
	Installation *Installation
	// PluginDirs are the implied local mirror directories besides the
	// working directory's terraform.d/plugins, as Terraform finds them:
	// the plugins directory of the CLI configuration directory, then the
	// system's data directories' (on Linux, $XDG_DATA_HOME/terraform/plugins
	// or ~/.local/share/terraform/plugins, then each of $XDG_DATA_DIRS, or
	// /usr/local/share and /usr/share, with terraform/plugins). They are
	// used only when Installation is nil.
	PluginDirs []string
	// Files are the CLI configuration files read, in the order read.
	Files []string
}

// LoadCLIConfig reads the CLI configuration from the files environ
// locates, as Load does, and also its host blocks and its
// provider_installation blocks. The diagnostics are Load's, and those of
// errors in host and provider_installation blocks, each at its file, line
// and column: a block or method with an error is left out, as Terraform
// leaves it out, and the rest is used. More than one provider_installation
// block is an error; the first one applies.
func LoadCLIConfig(environ []string) (*CLIConfig, hcl.Diagnostics) {
	return loadCLIConfig(environ, runtime.GOOS, userHome)
}

func loadCLIConfig(environ []string, goos string, home func() (string, error)) (*CLIConfig, hcl.Diagnostics) {
	store, set, diags := loadAll(environ, goos, home)
	diags = append(diags, set.diags...)
	c := &CLIConfig{Credentials: store, HostBlocks: map[string]registry.HostBlock{}, PluginDirs: set.pluginDirs, Files: set.files}
	for h, b := range set.hosts {
		c.HostBlocks[h.String()] = b
	}
	if len(set.installs) > 0 {
		c.Installation = set.installs[0]
		for _, other := range set.installs[1:] {
			file, line := splitPlace(other.Place)
			diags = append(diags, diag.ErrorAt(fileRange(file, line, 0), "Invalid provider_installation block",
				fmt.Sprintf("no more than one provider_installation block may be given; the one at %s applies", c.Installation.Place)))
		}
	}
	return c, diags
}

// splitPlace splits "FILE:LINE".
func splitPlace(p string) (file string, line int) {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == ':' {
			n, err := strconv.Atoi(p[i+1:])
			if err == nil {
				return p[:i], n
			}
			break
		}
	}
	return p, 0
}

// ProviderInstallation returns the source of versions that lists
// providers as "terraform init" run in workDir would find them under
// this configuration, and modules (and what the configuration leaves to
// the registry) with client. A relative filesystem_mirror path is taken
// from workDir, as terraform init run there takes it; so is the implied
// local mirror directory terraform.d/plugins. bypass, if not nil, names
// the hosts whose providers client lists alone (those a flag maps).
func (c *CLIConfig) ProviderInstallation(client *registry.Client, workDir string, bypass func(host string) bool) *registry.ProviderInstallation {
	pi := &registry.ProviderInstallation{Registry: client, Bypass: bypass}
	if c == nil {
		return pi
	}
	if c.Installation == nil {
		pi.LocalDirs = append([]string{filepath.Join(workDir, "terraform.d", "plugins")}, c.PluginDirs...)
		return pi
	}
	pi.Block = c.Installation.Place
	pi.DevOverrides = c.Installation.DevOverrides
	for _, m := range c.Installation.Methods {
		if m.Kind == registry.FilesystemMirror && !filepath.IsAbs(m.Location) {
			m.Location = filepath.Join(workDir, m.Location)
		}
		pi.Methods = append(pi.Methods, m)
	}
	return pi
}

// pluginDirs returns the implied local mirror directories besides the
// working directory's, as Terraform finds them on goos.
func pluginDirs(getenv func(string) string, goos string, home func() (string, error)) []string {
	if goos == "windows" {
		appData := getenv("APPDATA")
		if appData == "" {
			return nil
		}
		return []string{filepath.Join(appData, "terraform.d", "plugins"), filepath.Join(appData, "HashiCorp", "Terraform", "plugins")}
	}
	h := getenv("HOME")
	if h == "" {
		var err error
		if h, err = home(); err != nil {
			return nil
		}
	}
	dirs := []string{filepath.Join(h, ".terraform.d", "plugins")}
	if goos == "darwin" {
		return append(dirs, filepath.Join(h, "Library", "Application Support", "io.terraform", "plugins"),
			filepath.Join("/", "Library", "Application Support", "io.terraform", "plugins"))
	}
	dataHome := filepath.Join(h, ".local", "share")
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		dataHome = d
	}
	dataDirs := []string{"/usr/local/share/", "/usr/share/"}
	if d := getenv("XDG_DATA_DIRS"); d != "" {
		dataDirs = nil
		for _, p := range filepath.SplitList(d) {
			if filepath.IsAbs(p) {
				dataDirs = append(dataDirs, p)
			}
		}
	}
	for _, d := range append([]string{dataHome}, dataDirs...) {
		dirs = append(dirs, filepath.Join(d, "terraform", "plugins"))
	}
	return dirs
}
