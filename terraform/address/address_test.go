package address

import (
	"strings"
	"testing"
)

func TestParseModuleSource(t *testing.T) {
	tests := []struct {
		source string
		kind   Kind
		want   string // the canonical package for a registry source
		subdir string
		reason string // for other kinds: Reason contains this
	}{
		{"terraform-aws-modules/vpc/aws", Registry, "registry.terraform.io/terraform-aws-modules/vpc/aws", "", ""},
		{"app.terraform.io/example-corp/k8s-cluster/azurerm", Registry, "app.terraform.io/example-corp/k8s-cluster/azurerm", "", ""},
		{"Registry.Example.com:8443/Corp/Net/aws//modules/sub", Registry, "registry.example.com:8443/corp/net/aws", "modules/sub", ""},
		{"hashicorp/consul/aws//modules/consul-cluster", Registry, "registry.terraform.io/hashicorp/consul/aws", "modules/consul-cluster", ""},
		{"./modules/network", Local, "", "", "local path"},
		{"../shared", Local, "", "", "local path"},
		{`.\win`, Local, "", "", "local path"},
		{"git::https://example.com/network.git?ref=v1.2.0", Remote, "", "", "Git repository"},
		{"github.com/hashicorp/example", Remote, "", "", "GitHub repository"},
		{"github.com/hashicorp/example/aws", Remote, "", "", "GitHub repository"},
		{"bitbucket.org/corp/net", Remote, "", "", "Bitbucket repository"},
		{"git@github.com:hashicorp/example.git", Remote, "", "", "Git repository"},
		{"https://example.com/vpc-module.zip", Remote, "", "", "HTTP URL"},
		{"s3::https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip", Remote, "", "", "Amazon S3"},
		{"gcs::https://www.googleapis.com/storage/v1/modules/foomodule.zip", Remote, "", "", "Google Cloud Storage"},
		{"hg::http://example.com/vpc.hg", Remote, "", "", "Mercurial"},
		{"/abs/path", Remote, "", "", "absolute path"},
		{"", Remote, "", "", "empty"},
		{"just-a-name", Remote, "", "", "not a registry address"},
		{"a/b/c/d/e", Remote, "", "", "not a registry address"},
		{"corp/net/AWS", Remote, "", "", "target system"},
		{"bücher.example/ns/name/aws", Registry, "bücher.example/ns/name/aws", "", ""},
		{"BÜCHER.Example/NS/name/aws//sub", Registry, "bücher.example/ns/name/aws", "sub", ""},
		{"xn--bcher-kva.example/ns/name/aws", Remote, "", "", `not a registry address (invalid registry host name "xn--bcher-kva.example": hostname label "xn--bcher-kva" specified in punycode format; service hostnames must be given in unicode)`},
		{"user@reg.example/ns/name/aws", Remote, "", "", `not a registry address (invalid registry host name "user@reg.example": idna: disallowed rune U+0040)`},
		{" reg.example/ns/name/aws", Remote, "", "", `not a registry address (invalid registry host name " reg.example": idna: disallowed rune U+0020)`},
		{"[::1]/ns/name/aws", Remote, "", "", `not a registry address (invalid registry host name "[::1]": `},
		{"reg.example/ns/na.me/aws", Remote, "", "", `not a registry address (invalid module name "na.me": `},
		{"reg.example/n s/name/aws", Remote, "", "", `not a registry address (invalid namespace "n s": `},
		{"my-getter::https://example.com/x", Remote, "", "", "not a registry address"},
		{"custom::https://example.com/x", Remote, "", "", `"custom" getter`},
		{"-corp/net/aws", Remote, "", "", "namespace"},
	}
	for _, tt := range tests {
		got := ParseModuleSource(tt.source)
		if got.Kind != tt.kind {
			t.Errorf("ParseModuleSource(%q).Kind = %v, want %v (%+v)", tt.source, got.Kind, tt.kind, got)
			continue
		}
		if tt.kind == Registry {
			if got.Package.String() != tt.want || got.Subdir != tt.subdir {
				t.Errorf("ParseModuleSource(%q) = %s //%s, want %s //%s", tt.source, got.Package, got.Subdir, tt.want, tt.subdir)
			}
			continue
		}
		if !strings.Contains(got.Reason, tt.reason) {
			t.Errorf("ParseModuleSource(%q).Reason = %q, want it to contain %q", tt.source, got.Reason, tt.reason)
		}
	}
}

func TestLocalSources(t *testing.T) {
	for _, tt := range []struct {
		source string
		want   bool
	}{
		{"./modules/x", true},
		{"../x", true},
		{`.\modules\x`, true},
		{`..\x`, true},
		{"./", true},
		{".", false},
		{"modules/x", false},
		{"terraform-aws-modules/vpc/aws", false},
		{"git::https://example.com/x.git", false},
		{"/abs/path", false},
	} {
		if got := ParseModuleSource(tt.source).Kind == Local; got != tt.want {
			t.Errorf("ParseModuleSource(%q) is local: %v, want %v", tt.source, got, tt.want)
		}
	}
}

func TestModuleKeyIgnoresCase(t *testing.T) {
	a := ParseModuleSource("terraform-aws-modules/vpc/aws//sub")
	b := ParseModuleSource("registry.terraform.io/Terraform-AWS-Modules/VPC/aws")
	if a.Package != b.Package {
		t.Errorf("%v != %v", a.Package, b.Package)
	}
	if got := a.Package.ForDisplay(); got != "terraform-aws-modules/vpc/aws" {
		t.Errorf("ForDisplay() = %q", got)
	}
}

func TestParseModulePackage(t *testing.T) {
	if p, err := ParseModulePackage("Corp/Net/aws"); err != nil || p.String() != "registry.terraform.io/corp/net/aws" {
		t.Errorf("ParseModulePackage = %v, %v", p, err)
	}
	for _, bad := range []string{"corp/net/aws//sub", "./local", "a/b", "github.com/a/b/c"} {
		if _, err := ParseModulePackage(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseModulePackage(%q): error %v, want one quoting the address", bad, err)
		}
	}
}

func TestParseProvider(t *testing.T) {
	tests := []struct {
		source string
		want   string // ProviderKey, or "" for an error containing err
		err    string
	}{
		{"hashicorp/aws", "registry.terraform.io/hashicorp/aws", ""},
		{"aws", "registry.terraform.io/hashicorp/aws", ""},
		{"Registry.Terraform.io/HashiCorp/AWS", "registry.terraform.io/hashicorp/aws", ""},
		{"registry.opentofu.org/opentofu/random", "registry.opentofu.org/opentofu/random", ""},
		{"localhost:8080/corp/thing", "localhost:8080/corp/thing", ""},
		{"terraform.io/builtin/terraform", "terraform.io/builtin/terraform", ""},
		{"bücher.example/ns/thing", "bücher.example/ns/thing", ""},
		{"BÜCHER.Example/ns/thing", "bücher.example/ns/thing", ""},
		{"a/b/c/d", "", `provider source "a/b/c/d": expected [HOST/]NAMESPACE/TYPE, but it has 4 parts separated by "/"`},
		{"a/b/c/d/e", "", `provider source "a/b/c/d/e": expected [HOST/]NAMESPACE/TYPE, but it has 5 parts separated by "/"`},
		{"hashicorp/", "", `provider source "hashicorp/": expected [HOST/]NAMESPACE/TYPE, but a part is empty`},
		{"/aws", "", `provider source "/aws": expected [HOST/]NAMESPACE/TYPE, but a part is empty`},
		{"", "", `provider source "": the source is empty`},
		{"bad_host/ns/type", "", `provider source "bad_host/ns/type": invalid registry host name "bad_host": idna: disallowed rune U+005F`},
		{"bad host!/ns/thing", "", `provider source "bad host!/ns/thing": invalid registry host name "bad host!": `},
		{"xn--bcher-kva.example/ns/thing", "", `invalid registry host name "xn--bcher-kva.example": hostname label "xn--bcher-kva" specified in punycode format`},
		{"[::1]/ns/thing", "", `invalid registry host name "[::1]": `},
		{"reg.example/hashi corp/aws", "", `provider source "reg.example/hashi corp/aws": invalid namespace "hashi corp": must contain only letters, digits, and dashes`},
		{"hashicorp/a.b", "", `provider source "hashicorp/a.b": invalid provider type "a.b": dots are not allowed`},
		{"hashicorp/terraform-provider-aws", "", "Did you mean"},
		{"-/aws", "", "legacy"},
		// A soft hyphen is mapped away: nothing is left of the part.
		{"\u00ad", "", `invalid provider type "\u00ad": nothing is left of it once normalized`},
		{"\u00ad/aws", "", `invalid namespace "\u00ad": nothing is left of it once normalized`},
		{"\u00ad/ns/aws", "", `invalid registry host name "\u00ad": `},
	}
	for _, tt := range tests {
		got, err := ParseProvider(tt.source)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseProvider(%q) = %v, %v; want an error containing %q", tt.source, got, err, tt.err)
			}
			continue
		}
		if err != nil || ProviderKey(got) != tt.want {
			t.Errorf("ParseProvider(%q) = %q, %v; want %q", tt.source, ProviderKey(got), err, tt.want)
		}
	}
	if p, _ := ParseProvider("terraform.io/builtin/terraform"); !p.IsBuiltIn() {
		t.Error("terraform.io/builtin/terraform is built in")
	}
	if p, _ := ParseProvider("bücher.example/ns/thing"); p.Hostname.String() != "xn--bcher-kva.example" {
		t.Errorf("host %q, want the punycode form", p.Hostname.String())
	}
	if p, _ := ParseProvider("hashicorp/aws"); p.ForDisplay() != "hashicorp/aws" {
		t.Errorf("ForDisplay() = %q", p.ForDisplay())
	}
}

func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"a/b/c", "h.io/a/b/c//d", "./x", "git::https://x", "github.com/a/b", "a/b", "", "a//b", "::", "a/b/c/d/e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if m := ParseModuleSource(s); m.Kind == Registry {
			if p, err := ParseModulePackage(m.Package.String()); err != nil || p != m.Package {
				t.Fatalf("ParseModuleSource(%q).Package = %q does not read back: %v", s, m.Package, err)
			}
		} else if m.Reason == "" {
			t.Fatalf("ParseModuleSource(%q): %v source without a reason", s, m.Kind)
		}
		if p, err := ParseProvider(s); err == nil {
			if p2, err := ParseProvider(ProviderKey(p)); err != nil || p2 != p {
				t.Fatalf("ParseProvider(%q) = %q does not read back: %v", s, ProviderKey(p), err)
			}
		}
	})
}

func TestInternationalHostsCompareInPunycode(t *testing.T) {
	m := ParseModuleSource("Bücher.example/ns/name/aws")
	if m.Kind != Registry || m.Package.Host.String() != "xn--bcher-kva.example" || m.Package.String() != "bücher.example/ns/name/aws" {
		t.Errorf("module: %v, host %q, shown as %q", m.Kind, m.Package.Host.String(), m.Package.String())
	}
	p, err := ParseProvider("BÜCHER.example/ns/thing")
	if err != nil || p.Hostname.String() != "xn--bcher-kva.example" || ProviderKey(p) != "bücher.example/ns/thing" {
		t.Errorf("provider: %v, host %q, key %q", err, p.Hostname.String(), ProviderKey(p))
	}
}
