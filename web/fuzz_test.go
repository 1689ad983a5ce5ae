package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/printable"
)

// FuzzParseQuery reads any query string of /api/versions: no panic; an
// error is a 400 whose text prints safely; an address read has a kind,
// a lower-case registry host, that of its canonical form.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"address=hashicorp/aws",
		"address=terraform-aws-modules/vpc/aws&kind=module",
		"address=registry.opentofu.org/hashicorp/aws&kind=provider",
		"address=127.0.0.1:8080/acme/demo",
		"address=%E2%80%AEevil/demo",
		"address=a/b/c/d/e",
		"kind=tool&address=x/y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, status, err := ParseQuery(v)
		if err != nil {
			if status != http.StatusBadRequest {
				t.Errorf("ParseQuery(%q): error %v with status %d", raw, err, status)
			}
			if !printable.Safe(err.Error()) {
				t.Errorf("ParseQuery(%q): the error %q does not print safely", raw, err)
			}
			return
		}
		if status != 0 || q.Kind != "module" && q.Kind != "provider" || q.Host == "" || q.Canonical == "" || len(q.Address) > MaxAddress {
			t.Fatalf("ParseQuery(%q) = %+v, %d", raw, q, status)
		}
		// The host checked against the registries allowed is the one the
		// lookup goes to. (The canonical form need not read back: a bare
		// provider type such as terraform-x is read, its full address is
		// refused.)
		if host, _, _ := strings.Cut(q.Canonical, "/"); host != q.Host || strings.ToLower(q.Host) != q.Host {
			t.Errorf("ParseQuery(%q) = %+v: the host %q is not the canonical address's", raw, q, q.Host)
		}
	})
}
