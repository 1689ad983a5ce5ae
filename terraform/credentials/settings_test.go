package credentials

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/prerel/prerel/terraform/registry"
)

// describeMethods names the methods of an installation for comparison.
func describeMethods(in *Installation) []string {
	if in == nil {
		return nil
	}
	var out []string
	for _, o := range in.DevOverrides {
		out = append(out, "dev_overrides "+o.Provider.String()+"="+o.Dir+" @"+o.Place)
	}
	for _, m := range in.Methods {
		s := string(m.Kind)
		if m.Location != "" {
			s += " " + m.Location
		}
		for _, p := range m.Include {
			s += " +" + p.String()
		}
		for _, p := range m.Exclude {
			s += " -" + p.String()
		}
		out = append(out, s+" @"+m.Place)
	}
	return out
}

// TestProviderInstallationBlocks decodes provider_installation blocks
// with Terraform's rules: each error at its file, line and column, the
// method with the error left out and the others kept.
func TestProviderInstallationBlocks(t *testing.T) {
	tests := []struct {
		name    string
		content string
		methods []string // "f" is the file
		diags   []string
	}{
		{"the usual", `
provider_installation {
  network_mirror {
    url     = "https://mirror.example/providers/"
    include = ["registry.terraform.io/hashicorp/*"]
  }
  filesystem_mirror {
    path    = "/opt/mirror"
    include = ["reg.example/*/*"]
  }
  direct {
    exclude = ["registry.terraform.io/hashicorp/*", "reg.example/*/*"]
  }
}
`, []string{
			"network_mirror https://mirror.example/providers/ +registry.terraform.io/hashicorp/* @f:3",
			"filesystem_mirror /opt/mirror +reg.example/*/* @f:7",
			"direct -registry.terraform.io/hashicorp/* -reg.example/*/* @f:11",
		}, nil},
		// HCL 1 keeps no positions in JSON, and flattens nested objects:
		// the methods must be in lists, as for Terraform.
		{"JSON", `{"provider_installation": [{"direct": [{"exclude": ["hashicorp/aws"]}], "filesystem_mirror": [{"path": "/m"}]}]}`,
			[]string{"direct -registry.terraform.io/hashicorp/aws @f", "filesystem_mirror /m @f"}, nil},
		{"JSON flattened", `{"provider_installation": {"direct": {"exclude": ["hashicorp/aws"]}}}`,
			nil, []string{"f: Invalid provider_installation method block; the items inside the provider_installation block must all be blocks"}},
		{"empty block", "provider_installation {}\n", nil, nil},
		{"errors", `provider_installation {
  direct {}
  ftp_mirror {}
  filesystem_mirror {}
  network_mirror { url = "http://mirror.example/" }
  network_mirror {}
  direct { include = ["aws"] }
  direct { exclude = ["*/aws"] }
  dev_overrides { "hashicorp/aws" = "/src" }
  direct = {}
  direct "x" {}
}
`, []string{"direct @f:2", "direct @f:11"}, []string{
			`f:3:3: Invalid provider_installation method block; unknown provider installation method "ftp_mirror"`,
			`f:4:3: Invalid provider_installation method block; invalid filesystem_mirror block: "path" argument is required`,
			`f:5:3: Invalid URL for provider installation source; cannot use "http://mirror.example/" as a URL for a network provider mirror: the mirror must be at an https: URL`,
			`f:6:3: Invalid provider_installation method block; invalid network_mirror block: "url" argument is required`,
			`f:7:3: Invalid provider source inclusion patterns; the direct block has invalid provider inclusion patterns: invalid provider matching pattern "aws": must have either two or three slash-separated segments`,
			`f:8:3: Invalid provider source exclusion patterns; the direct block has invalid provider exclusion patterns: invalid provider matching pattern "*/aws": namespace can be a wildcard only if the provider type is also a wildcard`,
			`f:9:3: Invalid provider_installation method block; the dev_overrides block must appear before all other installation methods, because development overrides always have the highest priority`,
			`f:10:3: Invalid provider_installation method block; the items inside the provider_installation block must all be blocks`,
			`f:11:3: Invalid provider_installation method block; the blocks inside the provider_installation block may not have any labels`,
		}},
		{"dev_overrides", `provider_installation {
  dev_overrides {
    "hashicorp/aws" = "$SRC/aws"
    "not an address!" = "/x"
    "corp/thing" = "$MISSING/thing"
  }
  direct {}
}
`, []string{"dev_overrides registry.terraform.io/corp/thing=/thing @f:5", "dev_overrides registry.terraform.io/hashicorp/aws=/src/aws @f:3", "direct @f:7"}, []string{
			`f:5: Interpolated environment variable not set; the environment variable MISSING is not set or empty and can result in undesired behavior`,
			`f:4: Invalid provider installation dev overrides; the entry "not an address!" is not a valid provider source string: `,
		}},
		{"block with an equals sign", "provider_installation = {}\n", nil, []string{
			"f:1:1: Invalid provider_installation block; the provider_installation block must not be introduced with an equals sign"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc, diags := parseConfigEnv("f", []byte(tt.content), func(name string) (string, bool) {
				if name == "SRC" {
					return "/src", true
				}
				return "", false
			})
			if len(diags) > 0 {
				t.Fatalf("file diagnostics: %q", formatAll(diags, ""))
			}
			var got []string
			if len(fc.settings.installs) > 0 {
				got = describeMethods(fc.settings.installs[0])
			}
			if !reflect.DeepEqual(got, tt.methods) {
				t.Errorf("methods:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.methods, "\n"))
			}
			gotDiags := formatAll(fc.settings.diags, "")
			if len(gotDiags) != len(tt.diags) {
				t.Fatalf("diagnostics:\n%s\nwant:\n%s", strings.Join(gotDiags, "\n"), strings.Join(tt.diags, "\n"))
			}
			for i := range gotDiags {
				if !strings.HasPrefix(gotDiags[i], tt.diags[i]) {
					t.Errorf("diagnostic %d = %q\nwant it to start with %q", i, gotDiags[i], tt.diags[i])
				}
			}
		})
	}
}

// TestLoadCLIConfig reads host blocks and provider_installation blocks
// from the files Terraform reads, with its precedence: a file of the
// configuration directory wins over the CLI configuration file for a host
// block; the first provider_installation block applies; TF_CLI_CONFIG_FILE
// replaces both.
func TestLoadCLIConfig(t *testing.T) {
	home := t.TempDir()
	rc := write(t, home, ".terraformrc", `
credentials "reg.example" { token = "SECRET-TOKEN" }
host "reg.example" {
  services = { "modules.v1" = "https://main.example/m/" }
}
host "Other.Example:443" {
  services = { "providers.v1" = "/p/" }
}
host "bad host!" {
  services = {}
}
provider_installation {
  direct {}
}
`)
	dirFile := write(t, home, ".terraform.d/mirror.tfrc", `
host "reg.example" {
  services = { "modules.v1" = "https://dir.example/m/" }
}
provider_installation {
  filesystem_mirror { path = "/m" }
}
`)
	write(t, home, ".terraform.d/credentials.tfrc.json", `{"host": {"json.example": {"services": {"modules.v1": "/json/"}}}}`)

	c, diags := loadCLIConfig([]string{"HOME=" + home}, "linux", noHome)
	got := formatAll(diags, home)
	want := []string{
		`~/.terraformrc:9:6: Invalid host block; the host "bad host!" block has an invalid host name: `,
		`~/.terraform.d/mirror.tfrc:5: Invalid provider_installation block; no more than one provider_installation block may be given; the one at ~/.terraformrc:12 applies`,
	}
	if len(got) != len(want) {
		t.Fatalf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("diagnostic %q\nwant it to start with %q", got[i], want[i])
		}
		if strings.Contains(got[i], "SECRET") {
			t.Errorf("diagnostic %q shows a token", got[i])
		}
	}
	hosts := map[string]string{}
	for h, b := range c.HostBlocks {
		hosts[h] = b.Place
	}
	wantHosts := map[string]string{"reg.example": dirFile + ":2", "other.example": rc + ":6", "json.example": filepath.Join(home, ".terraform.d", "credentials.tfrc.json")}
	if !reflect.DeepEqual(hosts, wantHosts) {
		t.Errorf("host blocks at %q\nwant %q", hosts, wantHosts)
	}
	if c.HostBlocks["reg.example"].Services["modules.v1"] != "https://dir.example/m/" {
		t.Errorf("reg.example services = %v", c.HostBlocks["reg.example"].Services)
	}
	if got := describeMethods(c.Installation); !reflect.DeepEqual(got, []string{"direct @" + rc + ":13"}) {
		t.Errorf("installation = %q", got)
	}
	if tok, _, ok := c.Credentials.Token("reg.example"); !ok || tok != "SECRET-TOKEN" {
		t.Error("the token was not read")
	}
	if want := filepath.Join(home, ".terraform.d", "plugins"); len(c.PluginDirs) == 0 || c.PluginDirs[0] != want {
		t.Errorf("PluginDirs = %q, want %s first", c.PluginDirs, want)
	}

	// TF_CLI_CONFIG_FILE: that file only.
	only := write(t, home, "only.tfrc", "host \"only.example\" {\n  services = {}\n}\n")
	c, diags = loadCLIConfig([]string{"HOME=" + home, "TF_CLI_CONFIG_FILE=" + only}, "linux", noHome)
	if len(diags) > 0 || len(c.HostBlocks) != 1 || c.Installation != nil || !reflect.DeepEqual(c.Files, []string{only}) {
		t.Errorf("with TF_CLI_CONFIG_FILE: diagnostics %q, hosts %v, installation %v, files %q", formatAll(diags, home), c.HostBlocks, c.Installation, c.Files)
	}

	// Load reports none of the settings' errors.
	_, diags = load([]string{"HOME=" + home}, "linux", noHome)
	if len(diags) > 0 {
		t.Errorf("Load diagnostics: %q", formatAll(diags, home))
	}
}

// TestFileTerraformRejects checks that a file whose settings Terraform
// cannot decode gives nothing, its credentials included, as in Terraform.
func TestFileTerraformRejects(t *testing.T) {
	for _, content := range []string{
		"credentials \"a.example\" { token = \"T\" }\nhost = \"a.example\"\n",
		"credentials \"a.example\" { token = \"T\" }\nplugin_cache_dir = [\"x\"]\n",
		"credentials \"a.example\" { token = \"T\" }\nhost \"a.example\" { services = \"x\" }\n",
	} {
		fc, diags := parseConfig("f", []byte(content))
		if len(diags) != 1 || len(fc.hosts) != 0 || len(fc.settings.hosts) != 0 {
			t.Errorf("%q: diagnostics %q, tokens for %d hosts, %d host blocks; want one error and nothing", content, formatAll(diags, ""), len(fc.hosts), len(fc.settings.hosts))
		}
	}
}

// TestCLIConfigProviderInstallation checks the source a CLIConfig makes:
// relative filesystem mirror paths and the implied terraform.d/plugins
// taken from the working directory.
func TestCLIConfigProviderInstallation(t *testing.T) {
	client := &registry.Client{}
	c := &CLIConfig{PluginDirs: []string{"/home/u/.terraform.d/plugins"}}
	pi := c.ProviderInstallation(client, "/work/root", nil)
	if want := []string{filepath.Join("/work/root", "terraform.d", "plugins"), "/home/u/.terraform.d/plugins"}; pi.Block != "" || !reflect.DeepEqual(pi.LocalDirs, want) {
		t.Errorf("implied: block %q, local dirs %q; want %q", pi.Block, pi.LocalDirs, want)
	}
	c.Installation = &Installation{Place: "f:1", Methods: []registry.InstallMethod{
		{Kind: registry.FilesystemMirror, Location: "mirror"}, {Kind: registry.FilesystemMirror, Location: "/abs"}, {Kind: registry.Direct}}}
	pi = c.ProviderInstallation(client, "/work/root", nil)
	if pi.Block != "f:1" || pi.LocalDirs != nil || pi.Methods[0].Location != filepath.Join("/work/root", "mirror") || pi.Methods[1].Location != "/abs" {
		t.Errorf("explicit: block %q, local dirs %q, methods %v", pi.Block, pi.LocalDirs, pi.Methods)
	}
	if c.Installation.Methods[0].Location != "mirror" {
		t.Error("ProviderInstallation changed the CLIConfig")
	}
}

func TestPluginDirs(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(name string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == name {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name string
		goos string
		env  func(string) string
		want []string
	}{
		{"linux", "linux", env("HOME", "/h"), []string{"/h/.terraform.d/plugins", "/h/.local/share/terraform/plugins", "/usr/local/share/terraform/plugins", "/usr/share/terraform/plugins"}},
		{"XDG", "linux", env("HOME", "/h", "XDG_DATA_HOME", "/d", "XDG_DATA_DIRS", "/a:relative:/b"), []string{"/h/.terraform.d/plugins", "/d/terraform/plugins", "/a/terraform/plugins", "/b/terraform/plugins"}},
		{"relative XDG_DATA_HOME", "linux", env("HOME", "/h", "XDG_DATA_HOME", "d"), []string{"/h/.terraform.d/plugins", "/h/.local/share/terraform/plugins", "/usr/local/share/terraform/plugins", "/usr/share/terraform/plugins"}},
		{"darwin", "darwin", env("HOME", "/h"), []string{"/h/.terraform.d/plugins", "/h/Library/Application Support/io.terraform/plugins", "/Library/Application Support/io.terraform/plugins"}},
		{"no home", "linux", env(), nil},
	}
	for _, tt := range tests {
		if got := pluginDirs(tt.env, tt.goos, noHome); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
