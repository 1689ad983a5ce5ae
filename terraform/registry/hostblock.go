package registry

import (
	"fmt"
	"net/url"
	"sort"
)

// HostBlock is what a host block of Terraform's CLI configuration says of
// one host:
//
//	host "reg.example" {
//	  services = {
//	    "modules.v1"   = "https://reg.example/api/modules/v1/"
//	    "providers.v1" = "/api/providers/v1/"
//	  }
//	}
//
// Its services replace the host's discovery document, as in Terraform: a
// Client with the block fetches no https://HOST/.well-known/terraform.json.
type HostBlock struct {
	// Services maps a service ID ("modules.v1") to its URL as the block
	// gives it: a string, or any other value, which is an error when the
	// service is used. A relative URL is resolved against
	// https://HOST/.well-known/terraform.json, as Terraform resolves it.
	Services map[string]any
	// Place is where the block is, "FILE:LINE", for messages.
	Place string
}

// hostBlock returns the host block of host, if any.
func (c *Client) hostBlock(host string) (HostBlock, bool) {
	if hb, ok := c.HostBlocks[host]; ok {
		return hb, true
	}
	key := normalizeHost(host)
	// Sorted, so that of two spellings of one host the same one wins on
	// every run.
	keys := make([]string, 0, len(c.HostBlocks))
	for h := range c.HostBlocks {
		keys = append(keys, h)
	}
	sort.Strings(keys)
	for _, h := range keys {
		if normalizeHost(h) == key {
			return c.HostBlocks[h], true
		}
	}
	return HostBlock{}, false
}

// services reads the block's services for host, checking each one as a
// discovery document's. The lookups of a service carry the token of the
// service URL's own host, as those of a HOST=URL mapping do.
func (hb HostBlock) services(host string) (Services, error) {
	where := "the host block"
	if hb.Place != "" {
		where += " at " + hb.Place
	}
	base := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	svc := Services{where: where, block: true}
	for _, s := range []struct {
		key  string
		text *string
		u    **url.URL
		auth *string
	}{{"modules.v1", &svc.Modules, &svc.modules, &svc.modulesAuth}, {"providers.v1", &svc.Providers, &svc.providers, &svc.providersAuth}} {
		raw, ok := hb.Services[s.key]
		if !ok {
			continue
		}
		ref, ok := raw.(string)
		if !ok {
			return Services{}, fmt.Errorf("services of %s: %s: %q is not a string", host, where, s.key)
		}
		abs, problem := serviceURL(base, ref)
		if problem != "" {
			return Services{}, fmt.Errorf("services of %s: %s: %q is %q, %s", host, where, s.key, RedactURL(ref), problem)
		}
		*s.u, *s.text, *s.auth = abs, abs.String(), hostKey(abs)
	}
	return svc, nil
}
