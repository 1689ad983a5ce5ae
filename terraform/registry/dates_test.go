package registry

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"
)

const (
	v2ProviderBody = `{"data": {"type": "providers", "id": "323", "attributes": {"namespace": "hashicorp", "name": "aws"}},
  "included": [
    {"type": "provider-versions", "id": "1", "attributes": {"version": "5.0.0", "published-at": "2026-01-05T10:00:00Z", "tag": "v5.0.0"}},
    {"type": "provider-versions", "id": "2", "attributes": {"version": "5.1.0-beta1", "published-at": "2026-02-20T10:00:00Z"}},
    {"type": "provider-platforms", "id": "9", "attributes": {"os": "linux"}}
  ]}`
	v2ModuleBody = `{"data": {"type": "modules", "id": "1"}, "included": [
    {"type": "module-versions", "id": "11", "attributes": {"version": "1.0.0", "published-at": "2026-01-01T00:00:00Z"}},
    {"type": "module-versions", "id": "12", "attributes": {"version": "2.0.0", "published-at": "2026-02-28T00:00:00+02:00"}}]}`
	tofuProviderBody = `{"addr": {"namespace": "hashicorp", "name": "aws"}, "description": "AWS",
  "versions": [{"id": "v5.1.0", "published": "2026-02-27T08:00:00Z"}, {"id": "v5.0.0", "published": "2026-01-06T08:00:00Z"}]}`
)

// publicHosts are a provider and a module on each public registry, and
// one on a private host.
var (
	tfAWS   = tfaddr.MustParseProviderSource("hashicorp/aws")
	tofuAWS = tfaddr.MustParseProviderSource("registry.opentofu.org/hashicorp/aws")
	tfVPC   = tfaddr.MustParseModuleSource("terraform-aws-modules/vpc/aws").Package
)

// datesClient is a client whose public dates APIs and registry are f.
func datesClient(f *fakeRegistry) *Client {
	c := testClient(f)
	c.V2URL, c.OpenTofuDocsURL = f.URL+"/v2/", f.URL+"/registry/docs/"
	return c
}

func TestDates(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/v2/providers/hashicorp/aws":                       body(v2ProviderBody),
		"/v2/modules/terraform-aws-modules/vpc/aws":         body(v2ModuleBody),
		"/registry/docs/providers/hashicorp/aws/index.json": body(tofuProviderBody),
		"/.well-known/terraform.json":                       body(discoveryRelative),
		"/v1/modules/corp/net/aws/2.0.0":                    body(`{"id": "corp/net/aws/2.0.0", "version": "2.0.0", "published_at": "2026-02-01T00:00:00Z"}`),
		"/v1/modules/corp/net/aws/1.0.0":                    body(`{"id": "corp/net/aws/1.0.0", "version": "1.0.0", "published_at": "2025-02-01T00:00:00Z"}`),
		"/v1/providers/hashicorp/aws/versions":              body(providersBody),
	})
	c := datesClient(f)
	ctx := context.Background()
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t.UTC() }
	tests := []struct {
		name string
		get  func() (*DateListing, error)
		want map[string]time.Time
		from string
	}{
		{"v2 provider", func() (*DateListing, error) { return c.ProviderDates(ctx, tfAWS, nil) },
			map[string]time.Time{"5.0.0": at("2026-01-05T10:00:00Z"), "5.1.0-beta1": at("2026-02-20T10:00:00Z")}, "/v2/providers/hashicorp/aws?include=provider-versions"},
		{"v2 module", func() (*DateListing, error) { return c.ModuleDates(ctx, tfVPC, nil) },
			map[string]time.Time{"1.0.0": at("2026-01-01T00:00:00Z"), "2.0.0": at("2026-02-27T22:00:00Z")}, "/v2/modules/terraform-aws-modules/vpc/aws?include=module-versions"},
		{"opentofu provider", func() (*DateListing, error) { return c.ProviderDates(ctx, tofuAWS, nil) },
			map[string]time.Time{"5.1.0": at("2026-02-27T08:00:00Z"), "5.0.0": at("2026-01-06T08:00:00Z")}, "/registry/docs/providers/hashicorp/aws/index.json"},
		{"through the provider installation", func() (*DateListing, error) {
			return (&ProviderInstallation{Registry: c}).ProviderDates(ctx, tfAWS, nil)
		}, map[string]time.Time{"5.0.0": at("2026-01-05T10:00:00Z"), "5.1.0-beta1": at("2026-02-20T10:00:00Z")}, "/v2/providers/hashicorp/aws?include=provider-versions"},
		{"extended v1, newest first", func() (*DateListing, error) {
			return c.ModuleDates(ctx, netAddr, []string{"1.0.0", "2.0.0"})
		}, map[string]time.Time{"2.0.0": at("2026-02-01T00:00:00Z"), "1.0.0": at("2025-02-01T00:00:00Z")}, "/v1/modules/ (one request per version)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := tt.get()
			if err != nil {
				t.Fatal(err)
			}
			if d.Note != "" || len(d.Published) != len(tt.want) || !strings.HasSuffix(d.From, tt.from) {
				t.Fatalf("got %v from %q, note %q; want %v from ...%s", d.Published, d.From, d.Note, tt.want, tt.from)
			}
			for v, w := range tt.want {
				if !d.Published[v].Equal(w) {
					t.Errorf("%s: %v, want %v", v, d.Published[v], w)
				}
			}
		})
	}
}

// TestDatesPrivateRegistryWithout checks that a host with no dates gives
// a note and no error, and asks two versions only.
func TestDatesPrivateRegistryWithout(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json":    body(discoveryRelative),
		"/v1/modules/corp/net/aws/2.0.0": body(`{"version": "2.0.0"}`),
		"/v1/modules/corp/net/aws/1.5.0": body(`{"version": "1.5.0"}`),
		"/v1/modules/corp/net/aws/1.0.0": body(`{"version": "1.0.0"}`),
	})
	d, err := datesClient(f).ModuleDates(context.Background(), netAddr, []string{"1.0.0", "2.0.0", "1.5.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Published) != 0 || !strings.Contains(d.Note, "registry.terraform.io gives no publication dates") || !strings.Contains(d.Detail, `no "published_at"`) {
		t.Errorf("got %v, note %q", d.Published, d.Note)
	}
	if a, b, c := f.hits["/v1/modules/corp/net/aws/2.0.0"].Load(), f.hits["/v1/modules/corp/net/aws/1.5.0"].Load(), f.hits["/v1/modules/corp/net/aws/1.0.0"].Load(); a != 1 || b != 1 || c != 0 {
		t.Errorf("asked 2.0.0 %d times, 1.5.0 %d, 1.0.0 %d; want the first two once", a, b, c)
	}
}

// TestDatesHostile checks the answers a hostile or broken dates API can
// give: each is a note naming what was wrong, never a date made up, and
// the lookups stay bounded.
func TestDatesHostile(t *testing.T) {
	// slow never answers: it waits until the client gives up, which the
	// client's own timeout (the one case run with a short one) makes it
	// do; the other cases run with a timeout far above what they take.
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Minute):
		}
	}
	for _, tt := range []struct {
		name string
		h    http.HandlerFunc
		note string
	}{
		{"huge", body(`{"included": [` + strings.Repeat(`{"type": "provider-versions", "attributes": {"version": "1.0.0", "published-at": "2026-01-01T00:00:00Z"}},`, 2000) + `{}]}`), "larger than the limit"},
		{"malformed", body(`{"included": [{"type": "provider-versions",`), "malformed JSON"},
		{"wrong type", body(`{"included": [{"type": "provider-versions", "attributes": {"version": "1.0.0", "published-at": 5}}]}`), `published-at" is a JSON number, expected a string`},
		{"not a time", body(`{"included": [{"type": "provider-versions", "attributes": {"version": "1.0.0", "published-at": "yesterday"}}]}`), `"yesterday" is not an RFC 3339 time`},
		{"included is an object", body(`{"included": {"type": "provider-versions"}}`), "expected an array of objects"},
		{"no included", body(`{"data": {}}`), `no "included" member`},
		{"slow", slow, "timeout"},
		{"redirect to another scheme", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		}, "not an http or https URL"},
		{"redirect loop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.String(), http.StatusFound)
		}, "redirected more than"},
		{"server error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusBadGateway) }, "502"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeRegistry(t, map[string]http.HandlerFunc{
				"/v2/providers/hashicorp/aws": tt.h,
				"/.well-known/terraform.json": body(discoveryRelative),
			})
			c := datesClient(f)
			// A timeout far above what an answer takes, but for the
			// handler that never answers, which the timeout is the test of.
			c.MaxBodyBytes, c.Timeout, c.Retries = 64<<10, 30*time.Second, -1
			if tt.name == "slow" {
				c.Timeout = time.Second
			}
			d, err := c.ProviderDates(context.Background(), tfAWS, []string{"1.0.0"})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Published) != 0 || d.Note == "" || !strings.Contains(d.Detail, tt.note) {
				t.Errorf("got %v, note %q (%s); want a note with %q", d.Published, d.Note, d.Detail, tt.note)
			}
		})
	}
}

// TestIndexPublishedAt checks the index file's dates and their errors.
func TestIndexPublishedAt(t *testing.T) {
	x, err := ParseIndex([]byte(`{"modules": {"corp/net/aws": {"modules": [{"versions": [
  {"version": "1.0.0", "published_at": "2026-01-01T00:00:00Z"}, {"version": "1.1.0"}]}]}},
  "providers": {"hashicorp/aws": {"versions": [{"version": "5.0.0", "published_at": "2026-02-01T12:00:00+01:00"}]}}}`), "index.json")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := x.ModuleVersions(context.Background(), netAddr)
	if len(m.Published) != 2 || m.Published[0].Format(time.RFC3339) != "2026-01-01T00:00:00Z" || !m.Published[1].IsZero() {
		t.Errorf("module dates %v", m.Published)
	}
	p, _ := x.ProviderVersions(context.Background(), aws)
	if len(p.Published) != 1 || p.Published[0].Format(time.RFC3339) != "2026-02-01T11:00:00Z" {
		t.Errorf("provider dates %v", p.Published)
	}
	for body, want := range map[string]string{
		`{"modules": {"corp/net/aws": {"modules": [{"versions": [{"version": "1.0.0", "published_at": "soon"}]}]}}}`: `modules["corp/net/aws"]: versions[0]: "published_at" "soon" is not an RFC 3339 time`,
		`{"providers": {"hashicorp/aws": {"versions": [{"version": "1.0.0", "published_at": 1700000000}]}}}`:         `published_at" is a JSON number, expected a string`,
	} {
		if _, err := ParseIndex([]byte(body), "index.json"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

// TestDatesMappedHost checks that a host the run maps to a mirror is not
// looked up on the public APIs: its own extended v1 endpoint answers.
func TestDatesMappedHost(t *testing.T) {
	f := newFakeRegistry(t, map[string]http.HandlerFunc{
		"/.well-known/terraform.json":                     body(discoveryRelative),
		"/v1/modules/terraform-aws-modules/vpc/aws/5.0.0": body(`{"version": "5.0.0", "published_at": "2026-01-01T00:00:00Z"}`),
	})
	d, err := testClient(f).ModuleDates(context.Background(), tfVPC, []string{"5.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Note != "" || len(d.Published) != 1 || strings.Contains(d.From, "/v2/") {
		t.Errorf("got %v from %q, note %q (%s)", d.Published, d.From, d.Note, d.Detail)
	}
}
