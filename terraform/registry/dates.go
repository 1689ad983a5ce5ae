package registry

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/engine"
)

// Dated is a source that can give the publication dates of a module's or
// a provider's versions, which the registry protocol's versions
// endpoints do not carry.
type Dated interface {
	ModuleDates(ctx context.Context, pkg tfaddr.ModulePackage, versions []string) (*DateListing, error)
	ProviderDates(ctx context.Context, p tfaddr.Provider, versions []string) (*DateListing, error)
}

// DateListing is the dates one lookup found.
type DateListing struct {
	// Published maps a version, as the versions lookup lists it, to its
	// publication date. A version it does not hold has no date.
	Published map[string]time.Time
	// From says where the dates came from: the URL, or "".
	From string
	// Note says, when there are none, that the host gives none ("HOST
	// gives no publication dates"), the same for every address of the
	// host; Detail says what each API answered.
	Note, Detail string
}

// The hosts whose dates come from an API other than the registry
// protocol.
const (
	PublicTerraformHost = "registry.terraform.io"
	PublicOpenTofuHost  = "registry.opentofu.org"
)

// Defaults of the Client's fields for dates.
const (
	// DefaultV2URL is registry.terraform.io's JSON:API, whose module and
	// provider documents include every version's "published-at".
	DefaultV2URL = "https://registry.terraform.io/v2/"
	// DefaultOpenTofuDocsURL is the OpenTofu registry's documentation
	// API, whose index.json lists every version with "published".
	DefaultOpenTofuDocsURL = "https://api.opentofu.org/registry/docs/"
	// MaxVersionDateRequests bounds the requests of the extended v1
	// endpoint, one per version, for one lookup: the newest versions
	// first; the older ones are left without a date.
	MaxVersionDateRequests = 12
	// MaxDates bounds the versions one answer may date.
	MaxDates = 100_000
)

var _ Dated = (*Client)(nil)

// ModuleDates returns the publication dates of a module's versions: on
// registry.terraform.io from its v2 API,
//
//	GET <V2URL>modules/NAMESPACE/NAME/SYSTEM?include=module-versions
//
// (every included "module-versions" resource's "version" and
// "published-at"); on registry.opentofu.org from its documentation API,
//
//	GET <OpenTofuDocsURL>modules/NAMESPACE/NAME/SYSTEM/index.json
//
// ("versions": [{"id": "v1.2.0", "published": "..."}]); elsewhere, or
// when those fail, from the extended v1 endpoint of the host's own
// modules.v1, one request per version, newest first, at most
// MaxVersionDateRequests ("published_at"). A host the Client maps to
// another URL (BaseURL, HostURLs) is not looked up on the public APIs
// unless V2URL or OpenTofuDocsURL is set. A host that answers none of
// them has no dates: the DateListing's Note says so, and the error is
// nil. The requests are bounded as every other (timeouts, retries, the
// run's deadline, body sizes).
func (c *Client) ModuleDates(ctx context.Context, pkg tfaddr.ModulePackage, versions []string) (*DateListing, error) {
	if c == nil {
		return nil, ErrNilClient
	}
	ctx, cancel := c.runContext(ctx)
	defer cancel()
	host := strings.ToLower(pkg.Host.String())
	parts := []string{pkg.Namespace, pkg.Name, pkg.TargetSystem}
	return c.dates(ctx, "module "+pkg.ForDisplay(), host, "modules", parts, versions, func(svc Services) (*url.URL, string) {
		return svc.modules, svc.modulesAuth
	})
}

// ProviderDates is ModuleDates for a provider: registry.terraform.io's
// GET <V2URL>providers/NAMESPACE/TYPE?include=provider-versions,
// registry.opentofu.org's GET <OpenTofuDocsURL>providers/NAMESPACE/TYPE/index.json,
// or the extended v1 GET <providers.v1>NAMESPACE/TYPE/VERSION.
func (c *Client) ProviderDates(ctx context.Context, p tfaddr.Provider, versions []string) (*DateListing, error) {
	if c == nil {
		return nil, ErrNilClient
	}
	ctx, cancel := c.runContext(ctx)
	defer cancel()
	host := strings.ToLower(p.Hostname.String())
	return c.dates(ctx, "provider "+p.ForDisplay(), host, "providers", []string{p.Namespace, p.Type}, versions, func(svc Services) (*url.URL, string) {
		return svc.providers, svc.providersAuth
	})
}

// dates finds the dates of one address: kind is "modules" or
// "providers".
func (c *Client) dates(ctx context.Context, what, host, kind string, parts, versions []string, service func(Services) (*url.URL, string)) (*DateListing, error) {
	var problems []string
	// A host the run maps elsewhere (BaseURL, HostURLs: a mirror, an
	// air-gapped copy) is not looked up on the public APIs, unless their
	// URLs are given too.
	mapped := c.Maps(host)
	switch {
	case host == PublicTerraformHost && (!mapped || c.V2URL != ""):
		d, err := c.v2Dates(ctx, kind, parts)
		if err == nil {
			return d, nil
		}
		problems = append(problems, err.Error())
	case host == PublicOpenTofuHost && (!mapped || c.OpenTofuDocsURL != ""):
		d, err := c.openTofuDates(ctx, kind, parts)
		if err == nil {
			return d, nil
		}
		problems = append(problems, err.Error())
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: dates: %w", what, contextError(ctx))
	}
	d, err := c.v1Dates(ctx, host, parts, versions, service)
	if err != nil {
		problems = append(problems, err.Error())
		return &DateListing{Note: fmt.Sprintf("%s gives no publication dates", host), Detail: strings.Join(problems, "; ")}, nil
	}
	return d, nil
}

// v2Body is the part of a v2 JSON:API document with the versions.
type v2Body struct {
	Included *[]struct {
		Type       string `json:"type"`
		Attributes struct {
			Version     *string `json:"version"`
			PublishedAt *string `json:"published-at"`
		} `json:"attributes"`
	} `json:"included"`
}

// v2Dates asks registry.terraform.io's v2 API.
func (c *Client) v2Dates(ctx context.Context, kind string, parts []string) (*DateListing, error) {
	base, err := c.apiURL(c.V2URL, DefaultV2URL)
	if err != nil {
		return nil, err
	}
	u := joinEscaped(base, append([]string{kind}, parts...)...)
	include := strings.TrimSuffix(kind, "s") + "-versions"
	u.RawQuery = "include=" + include
	resp, err := c.get(ctx, u, "")
	if err != nil {
		return nil, err
	}
	var b v2Body
	if err := decodeJSON(resp.body, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", redactedURL(u), err)
	}
	if b.Included == nil {
		return nil, fmt.Errorf("%s: no \"included\" member", redactedURL(u))
	}
	out := &DateListing{Published: map[string]time.Time{}, From: redactedURL(u)}
	for i, r := range *b.Included {
		if r.Type != include || r.Attributes.Version == nil || r.Attributes.PublishedAt == nil {
			continue
		}
		t, err := time.Parse(time.RFC3339, *r.Attributes.PublishedAt)
		if err != nil {
			return nil, fmt.Errorf("%s: included[%d]: \"published-at\" %q is not an RFC 3339 time", redactedURL(u), i, clipQuoted(*r.Attributes.PublishedAt))
		}
		if err := addDate(out, *r.Attributes.Version, t); err != nil {
			return nil, fmt.Errorf("%s: %w", redactedURL(u), err)
		}
	}
	return out, nil
}

// openTofuBody is the part of an OpenTofu docs index.json with the
// versions.
type openTofuBody struct {
	Versions *[]struct {
		ID        *string    `json:"id"`
		Published *time.Time `json:"published"`
	} `json:"versions"`
}

// openTofuDates asks api.opentofu.org.
func (c *Client) openTofuDates(ctx context.Context, kind string, parts []string) (*DateListing, error) {
	base, err := c.apiURL(c.OpenTofuDocsURL, DefaultOpenTofuDocsURL)
	if err != nil {
		return nil, err
	}
	elems := append(append([]string{kind}, parts...), "index.json")
	u := joinEscaped(base, elems...)
	resp, err := c.get(ctx, u, "")
	if err != nil {
		return nil, err
	}
	var b openTofuBody
	if err := decodeJSON(resp.body, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", redactedURL(u), err)
	}
	if b.Versions == nil {
		return nil, fmt.Errorf("%s: no \"versions\" member", redactedURL(u))
	}
	out := &DateListing{Published: map[string]time.Time{}, From: redactedURL(u)}
	for _, v := range *b.Versions {
		if v.ID == nil || v.Published == nil || v.Published.IsZero() {
			continue
		}
		// The API writes "v1.2.0" where the protocol lists "1.2.0".
		if err := addDate(out, strings.TrimPrefix(*v.ID, "v"), *v.Published); err != nil {
			return nil, fmt.Errorf("%s: %w", redactedURL(u), err)
		}
	}
	return out, nil
}

// v1VersionBody is the part of the extended v1 answer for one version.
type v1VersionBody struct {
	Version     *string `json:"version"`
	PublishedAt *string `json:"published_at"`
}

// v1Dates asks the host's own v1 service for each version, newest first,
// at most MaxVersionDateRequests. The first two versions asked decide
// whether the host gives dates: when neither is dated, the search ends
// with the error; otherwise a version without a date is left undated and
// the search goes on. The run's deadline still ends it.
func (c *Client) v1Dates(ctx context.Context, host string, parts, versions []string, service func(Services) (*url.URL, string)) (*DateListing, error) {
	svc, err := c.discoverOnce(ctx, host)
	if err != nil {
		return nil, err
	}
	base, auth := service(svc)
	if base == nil {
		return nil, fmt.Errorf("%s offers no such service", host)
	}
	out := &DateListing{Published: map[string]time.Time{}}
	failed := 0
	lastErr := fmt.Errorf("%s: no version to ask for", host)
	for i, v := range newestFirst(versions) {
		if i == MaxVersionDateRequests {
			break
		}
		u := joinEscaped(base, append(slices.Clone(parts), v)...)
		t, err := c.v1Date(ctx, u, auth)
		if err != nil {
			lastErr = err
			if failed++; len(out.Published) == 0 && failed >= 2 || ctx.Err() != nil {
				return nil, err
			}
			continue
		}
		out.Published[v] = t.UTC()
		if out.From == "" {
			out.From = redactedURL(base) + " (one request per version)"
		}
	}
	if len(out.Published) == 0 {
		return nil, lastErr
	}
	return out, nil
}

// v1Date is one version's date from the extended v1 endpoint.
func (c *Client) v1Date(ctx context.Context, u *url.URL, auth string) (time.Time, error) {
	resp, err := c.get(ctx, u, auth)
	if err != nil {
		return time.Time{}, err
	}
	var b v1VersionBody
	if err := decodeJSON(resp.body, &b); err != nil {
		return time.Time{}, fmt.Errorf("%s: %w", redactedURL(u), err)
	}
	if b.PublishedAt == nil {
		return time.Time{}, fmt.Errorf("%s: no \"published_at\"", redactedURL(u))
	}
	t, err := time.Parse(time.RFC3339, *b.PublishedAt)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: \"published_at\" %q is not an RFC 3339 time", redactedURL(u), clipQuoted(*b.PublishedAt))
	}
	return t, nil
}

// addDate records a version's date, refusing an answer with too many.
func addDate(d *DateListing, version string, t time.Time) error {
	if len(d.Published) >= MaxDates {
		return fmt.Errorf("more than %d versions dated", MaxDates)
	}
	d.Published[version] = t.UTC()
	return nil
}

// apiURL parses the configured URL of an API, or its default.
func (c *Client) apiURL(configured, def string) (*url.URL, error) {
	s := configured
	if s == "" {
		s = def
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the dates API URL %q is not an http or https URL", RedactURL(s))
	}
	return u, nil
}

// joinEscaped joins path-escaped parts to base, with no query.
func joinEscaped(base *url.URL, parts ...string) *url.URL {
	elems := make([]string, len(parts))
	for i, p := range parts {
		elems[i] = url.PathEscape(p)
	}
	u := base.JoinPath(elems...)
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	return u
}

// newestFirst orders versions by SemVer precedence, newest first, the
// ones the engine cannot read last.
func newestFirst(versions []string) []string {
	type rv struct {
		text string
		v    engine.Version
		ok   bool
	}
	rs := make([]rv, len(versions))
	for i, t := range versions {
		v, err := engine.ParseVersion(t)
		rs[i] = rv{t, v, err == nil}
	}
	slices.SortStableFunc(rs, func(a, b rv) int {
		switch {
		case a.ok != b.ok:
			if a.ok {
				return -1
			}
			return 1
		case !a.ok:
			return 0
		}
		return b.v.Compare(a.v)
	})
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.text
	}
	return out
}

var _ Dated = (*ProviderInstallation)(nil)

// ModuleDates asks the registry client: modules are always installed
// from the registry.
func (p *ProviderInstallation) ModuleDates(ctx context.Context, pkg tfaddr.ModulePackage, versions []string) (*DateListing, error) {
	if p == nil || p.Registry == nil {
		return nil, ErrNilClient
	}
	return p.Registry.ModuleDates(ctx, pkg, versions)
}

// ProviderDates asks the registry client, whatever mirror lists the
// versions: a version's publication date is the registry's.
func (p *ProviderInstallation) ProviderDates(ctx context.Context, pr tfaddr.Provider, versions []string) (*DateListing, error) {
	if p == nil || p.Registry == nil {
		return nil, ErrNilClient
	}
	return p.Registry.ProviderDates(ctx, pr, versions)
}
