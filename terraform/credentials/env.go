package credentials

import (
	"strings"

	svchost "github.com/hashicorp/terraform-svchost"
)

// envPrefix starts the name of every environment variable that holds a
// token for one host.
const envPrefix = "TF_TOKEN_"

// envHost returns the host a TF_TOKEN_ variable name is for, in the form
// hosts are compared in, as Terraform decodes it: "__" stands for "-",
// then "_" for ".", and the host may be given in Unicode or in punycode,
// in any case. ok is false for a name without the prefix or for a name
// that does not decode to a valid host.
func envHost(name string) (host svchost.Hostname, ok bool) {
	raw, found := strings.CutPrefix(name, envPrefix)
	if !found {
		return "", false
	}
	raw = strings.ReplaceAll(raw, "__", "-")
	raw = strings.ReplaceAll(raw, "_", ".")
	h, err := normalize(raw)
	if err != nil {
		return "", false
	}
	return h, true
}

// normalize returns host in the form hosts are compared in (lower case,
// punycode, with a port only when it is not 443), accepting punycode
// labels, which svchost.ForComparison alone refuses.
func normalize(host string) (svchost.Hostname, error) {
	return svchost.ForComparison(svchost.ForDisplay(host))
}

// EnvName returns the name of the environment variable that gives a token
// for host, as a shell can set it: "TF_TOKEN_app_terraform_io" for
// app.terraform.io, "TF_TOKEN_xn____bcher__kva_example" for
// bücher.example. The name of a host with a port keeps its colon
// ("TF_TOKEN_reg_example:8443"), which env(1) can set but most shells
// cannot. An invalid host gives "".
func EnvName(host string) string {
	h, err := normalize(host)
	if err != nil {
		return ""
	}
	name := string(h)
	name = strings.ReplaceAll(name, "-", "__")
	name = strings.ReplaceAll(name, ".", "_")
	return envPrefix + name
}

// splitEnv splits a "KEY=VALUE" entry of an environment list; ok is false
// for an entry without "=".
func splitEnv(kv string) (key, value string, ok bool) {
	return strings.Cut(kv, "=")
}
