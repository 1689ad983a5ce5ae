package credentials

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/terraform/registry"
)

// Store holds the tokens Terraform and OpenTofu would send to registry
// hosts, and where each was found. Load makes one; the zero Store and a
// nil *Store hold none. Printing a Store or a *Store with the fmt package
// never shows a token.
type Store struct {
	// data returns the content. It is a function, which the fmt package
	// prints as an address with every verb, so that printing a Store by
	// reflection (as a field of another value) cannot show a token.
	data func() *storeData
}

// get returns the content, or nil for a nil or zero Store.
func (s *Store) get() *storeData {
	if s == nil || s.data == nil {
		return nil
	}
	return s.data()
}

type storeData struct {
	// tokens maps a host to what the source of highest precedence says
	// about it.
	tokens map[svchost.Hostname]entry
	// sources lists where tokens were looked for, in order of precedence.
	sources []string
	// helpers describes each credentials_helper block, which is not run.
	helpers []string
}

// entry is what one source says about one host. An entry whose ok is
// false (an empty TF_TOKEN_ variable, a credentials block without a
// token) hides the sources of lower precedence and gives no token.
type entry struct {
	token  secret
	ok     bool
	source string
}

// secret is a token. It prints as "[redacted]" with every verb of the
// fmt package, so that no token can be printed by mistake.
type secret string

const redacted = "[redacted]"

// String returns "[redacted]".
func (secret) String() string { return redacted }

// GoString returns "[redacted]".
func (secret) GoString() string { return redacted }

// Format writes "[redacted]" whatever the verb.
func (secret) Format(f fmt.State, _ rune) { io.WriteString(f, redacted) }

// Token returns the token for host and where it was found, such as
// "TF_TOKEN_reg_example" or "credentials block in /home/u/.terraformrc";
// ok is false when there is none. host is compared as Terraform compares
// hosts: "Reg.Example", "reg.example:443" and "reg.example" are one host,
// and an IDN host may be given in Unicode or in punycode.
func (s *Store) Token(host string) (token, source string, ok bool) {
	d := s.get()
	if d == nil {
		return "", "", false
	}
	h, err := normalize(host)
	if err != nil {
		return "", "", false
	}
	e, found := d.tokens[h]
	if !found || !e.ok {
		return "", "", false
	}
	return string(e.token), e.source, true
}

// Sources lists where tokens were looked for, in order of precedence (a
// token from an earlier source wins), for a message about credentials
// that a registry refused or asked for: "TF_TOKEN_* environment
// variables", then each CLI configuration file that exists ("credentials
// blocks in /home/u/.terraformrc", "/home/u/.terraform.d/credentials.tfrc.json"),
// with "(not read: line 4: ...)" after one with an error, then each
// credentials_helper block, which is not run. A nil or zero Store, which
// looked nowhere, has none.
func (s *Store) Sources() []string {
	d := s.get()
	if d == nil {
		return nil
	}
	out := append([]string{}, d.sources...)
	return append(out, d.helpers...)
}

// Helpers describes each credentials_helper block of the CLI
// configuration, whose program is not run, so that it gives no token:
// "credentials_helper \"vault\" in /home/u/.terraformrc (not run)".
func (s *Store) Helpers() []string {
	d := s.get()
	if d == nil {
		return nil
	}
	return append([]string{}, d.helpers...)
}

// Hosts returns the hosts that have a token, sorted.
func (s *Store) Hosts() []string {
	d := s.get()
	if d == nil {
		return nil
	}
	var hosts []string
	for h, e := range d.tokens {
		if e.ok {
			hosts = append(hosts, string(h))
		}
	}
	sort.Strings(hosts)
	return hosts
}

// String describes the store without its tokens: how many hosts have a
// token and where tokens were looked for.
func (s *Store) String() string {
	if s == nil {
		return "credentials.Store(nil)"
	}
	hosts := s.Hosts()
	return fmt.Sprintf("credentials.Store{%s with a token %v, sources %q}", plural.Of(len(hosts), "host", "hosts"), hosts, s.Sources())
}

// GoString is String.
func (s *Store) GoString() string { return s.String() }

// Format writes String whatever the verb.
func (s *Store) Format(f fmt.State, _ rune) { io.WriteString(f, s.String()) }

const envSource = "TF_TOKEN_* environment variables"

// Load reads the tokens that Terraform and OpenTofu would use, from
// environ (the environment as os.Environ returns it: "KEY=VALUE"
// strings) and from the CLI configuration files that environ locates.
// The package documentation says which files are read, and in which
// order.
//
// Diagnostics report files that cannot be read or parsed, each at its
// file, line and column; such a file gives no token, and the store holds
// what the other sources give. A missing file is not a source and not an
// error. No diagnostic quotes a token.
func Load(environ []string) (*Store, hcl.Diagnostics) {
	return load(environ, runtime.GOOS, userHome)
}

// userHome returns the home directory of the current user from the
// system's user database, as Terraform does when HOME is not set.
func userHome() (string, error) {
	u, err := user.Current()
	if err != nil {
		return "", err
	}
	if u.HomeDir == "" {
		return "", errors.New("the user database gives no home directory")
	}
	return u.HomeDir, nil
}

func load(environ []string, goos string, home func() (string, error)) (*Store, hcl.Diagnostics) {
	s, _, diags := loadAll(environ, goos, home)
	return s, diags
}

// loadAll reads the CLI configuration: the tokens, with the diagnostics
// Load reports, and the settings about where versions come from, with
// their own diagnostics.
func loadAll(environ []string, goos string, home func() (string, error)) (*Store, *settingsData, hcl.Diagnostics) {
	s := &storeData{tokens: map[svchost.Hostname]entry{}}
	set := &settingsData{hosts: map[svchost.Hostname]registry.HostBlock{}}
	var diags hcl.Diagnostics
	getenv := lookupFunc(environ)
	lookup := func(name string) (string, bool) {
		for _, kv := range environ {
			if k, v, ok := splitEnv(kv); ok && k == name {
				return v, true
			}
		}
		return "", false
	}

	// The CLI configuration files, from lowest precedence to highest.
	files, fdiags := locate(getenv, goos, home)
	diags = append(diags, fdiags...)
	var fileSources []string
	for _, f := range files {
		src, err := safefile.Read(f.path, FileLimit)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				if f.required {
					diags = append(diags, warning("Missing CLI configuration",
						fmt.Sprintf("%s names %s, which does not exist", f.fromVar, f.path)))
					fileSources = append(fileSources, describeFile(f, strings.HasSuffix(f.path, ".json"))+" (not read: it does not exist)")
				}
				continue
			}
			d := diag.ErrorAt(fileRange(f.path, 0, 0), "Unreadable CLI configuration", readError(err))
			diags = append(diags, d)
			fileSources = append(fileSources, describeFile(f, strings.HasSuffix(f.path, ".json"))+" ("+problem(d)+")")
			continue
		}
		fc, pdiags := parseConfigEnv(f.path, src, lookup)
		diags = append(diags, pdiags...)
		set.files = append(set.files, f.path)
		set.diags = append(set.diags, fc.settings.diags...)
		for h, b := range fc.settings.hosts {
			set.hosts[h] = b // a later file wins
		}
		set.installs = append(set.installs, fc.settings.installs...)
		desc := describeFile(f, fc.jsonSyntax)
		for _, d := range pdiags {
			if d.Severity == hcl.DiagError {
				desc += " (" + problem(d) + ")"
				break
			}
		}
		fileSources = append(fileSources, desc)
		source := f.path
		if !fc.jsonSyntax {
			source = "credentials block in " + f.path
		}
		for h, t := range fc.hosts {
			s.tokens[h] = entry{token: t.token, ok: t.ok, source: source}
		}
		for _, name := range fc.helpers {
			s.helpers = append(s.helpers, fmt.Sprintf("credentials_helper %s in %s (not run)", strconv.Quote(name), f.path))
		}
	}

	// TF_TOKEN_ variables take precedence over every file; of two
	// variables for one host, the later in environ wins.
	for _, kv := range environ {
		name, value, ok := splitEnv(kv)
		if !ok {
			continue
		}
		h, ok := envHost(name)
		if !ok {
			continue
		}
		s.tokens[h] = entry{token: secret(value), ok: value != "", source: name}
	}

	s.sources = append(s.sources, envSource)
	for i := len(fileSources) - 1; i >= 0; i-- {
		s.sources = append(s.sources, fileSources[i])
	}
	set.pluginDirs = pluginDirs(getenv, goos, home)
	return &Store{data: func() *storeData { return s }}, set, diags
}

// readError describes why a file could not be read, without its path,
// which the diagnostic's place gives.
func readError(err error) string {
	var nr *safefile.NotRegularError
	var tl *safefile.TooLargeError
	var pe *fs.PathError
	switch {
	case errors.As(err, &nr):
		return "not a regular file (it is " + safefile.Kind(nr.Mode) + ")"
	case errors.As(err, &tl):
		return "larger than " + safefile.Size(tl.Limit) + ", the limit for a CLI configuration file"
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
}

// problem describes an error in a file for a list of sources: "not read:
// line 4: SUMMARY; DETAIL", or "ignored: ..." for a credentials block
// whose host name is invalid, the file's other blocks being used.
func problem(d *hcl.Diagnostic) string {
	what := "not read: "
	if d.Summary == invalidBlock {
		what = "ignored: "
	}
	if d.Subject != nil && d.Subject.Start.Line > 0 {
		what += fmt.Sprintf("line %d: ", d.Subject.Start.Line)
	}
	return what + diag.Format(&hcl.Diagnostic{Severity: d.Severity, Summary: d.Summary, Detail: d.Detail})
}

// describeFile names a CLI configuration file as a source of tokens.
func describeFile(f configFile, jsonSyntax bool) string {
	d := f.path
	if !jsonSyntax {
		d = "credentials blocks in " + f.path
	}
	if f.fromVar != "" {
		d += " (" + f.fromVar + ")"
	}
	return d
}

// lookupFunc returns a function that looks a variable up in environ as
// os.Getenv does: the first entry for a name wins.
func lookupFunc(environ []string) func(string) string {
	return func(name string) string {
		for _, kv := range environ {
			if k, v, ok := splitEnv(kv); ok && k == name {
				return v
			}
		}
		return ""
	}
}

// configFile is a CLI configuration file to read.
type configFile struct {
	path string
	// fromVar names the environment variable that gave path, if any.
	fromVar string
	// required is true for a file named by an environment variable,
	// whose absence is worth a warning.
	required bool
}

// locate returns the CLI configuration files to read, from lowest
// precedence to highest.
func locate(getenv func(string) string, goos string, home func() (string, error)) ([]configFile, hcl.Diagnostics) {
	for _, v := range []string{"TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"} {
		if p := getenv(v); p != "" {
			// A file named by the environment replaces the default file
			// and the configuration directory.
			return []configFile{{path: p, fromVar: v, required: true}}, nil
		}
	}

	var dir, mainFile, configDir string
	if goos == "windows" {
		dir = getenv("APPDATA")
		if dir == "" {
			return nil, nil
		}
		mainFile = firstExisting(filepath.Join(dir, "terraform.rc"), filepath.Join(dir, "tofu.rc"))
		configDir = filepath.Join(dir, "terraform.d")
	} else {
		dir = getenv("HOME")
		if dir == "" {
			h, err := home()
			if err != nil {
				return nil, hcl.Diagnostics{warning("No home directory",
					fmt.Sprintf("HOME is not set and the home directory cannot be found (%v), so no CLI configuration file is read", err))}
			}
			dir = h
		}
		xdg := getenv("XDG_CONFIG_HOME")
		var xdgFile string
		if xdg != "" {
			xdgFile = filepath.Join(xdg, "opentofu", "tofurc")
		}
		mainFile = firstExisting(filepath.Join(dir, ".terraformrc"), filepath.Join(dir, ".tofurc"), xdgFile)
		configDir = filepath.Join(dir, ".terraform.d")
		if !exists(configDir) && xdg != "" {
			configDir = filepath.Join(xdg, "opentofu")
		}
	}

	var files []configFile
	if mainFile != "" {
		files = append(files, configFile{path: mainFile})
	}
	if fi, err := os.Stat(configDir); err != nil || !fi.IsDir() {
		return files, nil
	}
	entries, err := os.ReadDir(configDir)
	if err != nil {
		return files, hcl.Diagnostics{diag.ErrorAt(fileRange(configDir, 0, 0), "Unreadable CLI configuration directory", readError(err))}
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".tfrc") || strings.HasSuffix(name, ".tfrc.json") {
			files = append(files, configFile{path: filepath.Join(configDir, name)})
		}
	}
	return files, nil
}

// warning returns a warning diagnostic with no place.
func warning(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail}
}

// firstExisting returns the first of paths that names an existing file,
// or "".
func firstExisting(paths ...string) string {
	for _, p := range paths {
		if p != "" && exists(p) {
			return p
		}
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
