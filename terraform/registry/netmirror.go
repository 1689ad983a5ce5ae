package registry

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// ParseMirrorURL reads the URL of a network mirror as Terraform does: an
// absolute https URL with a host. Request paths are resolved against it,
// so that "https://mirror.example/providers/" and
// "https://mirror.example/providers" differ: the last segment of the
// second is replaced, as in Terraform.
func ParseMirrorURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("cannot parse %q as a URL for a network provider mirror: %v", RedactURL(raw), RedactURL(err.Error()))
	}
	if u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("cannot use %q as a URL for a network provider mirror: the mirror must be at an https: URL", RedactURL(raw))
	}
	return u, nil
}

// mirrorIndexBody is the body of GET <mirror>HOST/NAMESPACE/TYPE/index.json.
type mirrorIndexBody struct {
	Versions map[string]struct{} `json:"versions"`
}

// networkVersions lists the versions of p at the network mirror of m, by
// the provider network mirror protocol:
//
//	GET <url>HOSTNAME/NAMESPACE/TYPE/index.json
//
// answered {"versions": {"2.0.0": {}, ...}} with the Content-Type
// application/json. A 404 answer wraps ErrNotFound. The request carries
// the token of the mirror's own host, under the rules of the Client's.
// Versions Terraform cannot read are skipped, as Terraform skips them.
func (pi *ProviderInstallation) networkVersions(ctx context.Context, m InstallMethod, p tfaddr.Provider) (*Listing, error) {
	base, err := ParseMirrorURL(m.Location)
	if err != nil {
		return nil, err
	}
	rel, err := url.Parse(path.Join(p.Hostname.String(), p.Namespace, p.Type, "index.json"))
	if err != nil {
		return nil, fmt.Errorf("cannot make the mirror's URL for %s: %v", p.String(), err)
	}
	u := base.ResolveReference(rel)
	resp, err := pi.Registry.get(ctx, u, hostKey(base))
	if err != nil {
		hintUnresolved(err, hostKey(u), "the network_mirror block at "+m.Place+" gives this URL")
		return nil, err
	}
	shown := redactedURL(u)
	mt, _, err := mime.ParseMediaType(resp.contentType)
	if err != nil || mt != "application/json" {
		return nil, fmt.Errorf("GET %s: the answer's Content-Type is %q, not application/json, which the network mirror protocol requires", shown, resp.contentType)
	}
	var body mirrorIndexBody
	if err := decodeJSON(resp.body, &body); err != nil {
		return nil, fmt.Errorf("GET %s: %w", shown, err)
	}
	list := make(versions.List, 0, len(body.Versions))
	for s := range body.Versions {
		if v, err := versions.ParseVersion(s); err == nil {
			list = append(list, v)
		}
	}
	list.Sort()
	l := &Listing{From: shown}
	for _, v := range list {
		l.Versions = append(l.Versions, v.String())
	}
	return l, nil
}
