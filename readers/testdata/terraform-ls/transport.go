// This file is added by prerel's proof to package registry of a
// temporary copy of terraform-ls's module tree (as
// internal/registry/prerel_transport.go); it is never built in prerel's
// own module. The client's HTTP client is unexported, so a constructor in
// the package itself hands it a transport that answers from memory: the
// judge then runs GetMatchingModuleVersion and GetModuleVersions as they
// are, with no network.

package registry

import "net/http"

// PrerelClient is NewClient with its HTTP requests sent to rt.
func PrerelClient(rt http.RoundTripper) Client {
	c := NewClient()
	c.BaseURL = "http://registry.prerel.invalid"
	c.httpClient = &http.Client{Transport: rt}
	return c
}
