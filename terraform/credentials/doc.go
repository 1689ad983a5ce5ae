// Package credentials reads the registry tokens of Terraform and OpenTofu
// as those tools read them, so that a private registry accepts the same
// requests from prerel as from them.
//
// # Sources, in order of precedence
//
// For a host, the first of these that mentions it decides its token:
//
//  1. A TF_TOKEN_ environment variable. The rest of the variable's name
//     is the host, with "__" standing for "-" and then "_" for ".":
//     TF_TOKEN_app_terraform_io is for app.terraform.io,
//     TF_TOKEN_my__reg_example for my-reg.example. Case does not matter,
//     and an IDN host may be given in punycode (TF_TOKEN_xn--bcher-kva_example
//     or TF_TOKEN_xn____bcher__kva_example) or in Unicode. A host with a
//     port needs the colon in the name (TF_TOKEN_reg_example:8443), which
//     env(1) can set but most shells cannot. A name that is not a valid
//     host after decoding is ignored. Of two variables for one host, the
//     later in the environment wins.
//  2. The files of the CLI configuration directory whose names end in
//     ".tfrc" or ".tfrc.json", such as credentials.tfrc.json, which
//     "terraform login" writes. A file whose name sorts later wins.
//  3. The CLI configuration file.
//
// # Files
//
// When TF_CLI_CONFIG_FILE is set (or else TERRAFORM_CONFIG), the file it
// names is the only file read: as in Terraform and OpenTofu, the
// configuration directory is then not read, credentials.tfrc.json
// included. A warning, and Sources, say when that file does not exist.
//
// Otherwise, on Unix-like systems, the CLI configuration file is the
// first that exists of ~/.terraformrc (Terraform's, and OpenTofu's when
// ~/.tofurc does not exist), ~/.tofurc and $XDG_CONFIG_HOME/opentofu/tofurc
// (OpenTofu's); the configuration directory is ~/.terraform.d, or
// $XDG_CONFIG_HOME/opentofu when ~/.terraform.d does not exist and
// XDG_CONFIG_HOME is set (OpenTofu's). The home directory is $HOME, or
// the user database's when HOME is empty. Where both ~/.terraformrc and
// ~/.tofurc exist, OpenTofu reads ~/.tofurc; this package reads
// ~/.terraformrc, as Terraform does.
//
// On Windows, the file is %APPDATA%\terraform.rc, or %APPDATA%\tofu.rc
// when that does not exist, and the directory is %APPDATA%\terraform.d.
// APPDATA is read from the environment; Terraform asks the system for
// the same folder.
//
// Every file is parsed as Terraform parses it, with HCL version 1: in
// JSON syntax when its first character other than white space is "{",
// whatever its name, in HCL syntax otherwise, and decoded into the same
// settings as Terraform's, so that a file Terraform refuses as a whole
// (such as one with host = "x") gives nothing here either. For tokens,
// two kinds of block are read:
//
//	credentials "app.terraform.io" {
//	  token = "..."
//	}
//
// or, in JSON, {"credentials": {"app.terraform.io": {"token": "..."}}};
// and credentials_helper blocks, which are recorded but not run. Blocks
// for one host in one file are merged, the later attribute winning. The
// host is compared as Terraform compares hosts: in lower case, in
// punycode, and without the port 443. Of two spellings of one host in one
// file, the later in sort order wins (Terraform picks either).
//
// A credentials block without a token, or whose token is not a string,
// and an empty token or TF_TOKEN_ variable give no token for the host and
// hide the sources after it. (Terraform then sends an empty bearer token;
// Token reports none.) A token is returned as written.
//
// # Bounds and errors
//
// A file must be a regular file of at most FileLimit bytes (256 KiB):
// a FIFO, a device or a directory is refused without being opened for
// reading. A file nested deeper than MaxDepth levels is refused before
// it is parsed. A file that cannot be read or parsed is reported by a
// diagnostic at its file, line and column and gives no token; so is a
// credentials block with an invalid host name, the file's other blocks
// being used. The other sources still count: Terraform, too, goes on
// after such an error. Sources names each such file with its error, so
// that the message about a refused request says why its token was not
// found. A malformed file on which HCL 1 panics (and Terraform with it)
// is reported like any other.
//
// No diagnostic, error or String quotes a token: a Store prints as a
// summary, whatever the fmt verb.
//
// # Where versions come from
//
// LoadCLIConfig reads, besides the tokens, what the CLI configuration
// says about where versions come from, from the same files:
//
//   - host blocks, which give a host's services instead of its discovery
//     document (registry.Client.HostBlocks). Of two blocks for one host,
//     that of the file read later wins: the files of the configuration
//     directory win over the CLI configuration file.
//   - the provider_installation block, decoded with the rules of
//     Terraform's own decoder: its direct, filesystem_mirror and
//     network_mirror methods with their include and exclude patterns, and
//     its dev_overrides. The first block read applies; a second one is an
//     error, as in Terraform. CLIConfig.ProviderInstallation makes the
//     registry.ProviderInstallation that lists providers by it, or by the
//     implied default when there is no block: the implied local mirror
//     directories (terraform.d/plugins of the working directory, the
//     plugins directory of the CLI configuration directory, the system's
//     data directories), then the origin registry.
//
// An error in these blocks (an invalid host name, an unknown method, a
// pattern or a URL Terraform refuses) is reported at its file, line and
// column, and leaves out that block or method only, as Terraform leaves
// it out. HCL 1 keeps no line numbers in JSON syntax, so a place in a
// JSON file is the file alone. Load reports none of these errors.
//
// These settings are not used when a flag says where versions come from:
// package registry and prerel's documentation (docs/install-today.md)
// give the precedence.
//
// # Not supported
//
//   - Credentials helpers: the program a credentials_helper block names
//     is not run, so a host whose token only a helper gives has none.
//     Sources and Helpers name the block.
//   - Settings of the CLI configuration other than credentials, host
//     blocks and provider_installation, such as plugin_cache_dir, are
//     decoded but not used.
//   - Writing credentials, as "terraform login" does.
//   - Credentials of OCI registries (OpenTofu's oci_credentials blocks and
//     Docker's configuration).
//
// # A source of versions
//
// NewSource makes the source of versions a run's settings name: an
// offline index, or a registry client with the tokens read here and,
// for a configuration, what the CLI configuration adds (host blocks,
// provider_installation), as terraform init reads them.
package credentials
