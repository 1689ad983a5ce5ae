package registry

import (
	"fmt"
	"net/url"
	"strings"
)

// Redacted replaces the userinfo of a URL (user name and password) in
// everything the package prints.
const Redacted = "REDACTED"

// RedactURL returns s with the userinfo of every URL in it (the
// "user:password@" after "scheme://") replaced by Redacted, so that
// "http://user:s3cret@host/x" reads "http://REDACTED@host/x". s may be a
// URL, a HOST=URL flag value or any text that quotes URLs; the rest of s
// is left as it is. The user name goes too: it is often a token itself.
func RedactURL(s string) string {
	if !strings.Contains(s, "@") || !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			break
		}
		b.WriteString(s[:i+3])
		s = s[i+3:]
		// The authority ends where url.Parse ends it, or at white space
		// or a quote in free text.
		end := strings.IndexAny(s, "/?#\\ \t\r\n\"'`<>")
		if end < 0 {
			end = len(s)
		}
		if at := strings.LastIndex(s[:end], "@"); at >= 0 {
			b.WriteString(Redacted)
			s = s[at:]
		}
	}
	b.WriteString(s)
	return b.String()
}

// redactedURL is RedactURL for a parsed URL.
func redactedURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	if u.User == nil {
		return u.String()
	}
	c := *u
	c.User = url.User(Redacted)
	return c.String()
}

// ParseBaseURL reads the URL a registry host is mapped to, such as
// "https://mirror.example/terraform" (Client.BaseURL and HostURLs): an
// absolute http:// or https:// URL with a host, and with neither a query
// nor a fragment, since request paths are joined to its path. Userinfo
// is allowed (it is sent as Basic auth, to that host only); errors show it
// redacted.
func ParseBaseURL(raw string) (*url.URL, error) {
	shown := RedactURL(raw)
	u, err := url.Parse(raw)
	if err != nil {
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err
		}
		return nil, fmt.Errorf("%q is not a URL: %v", shown, RedactURL(err.Error()))
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q is not an http:// or https:// URL", shown)
	case u.Opaque != "" || u.Host == "":
		return nil, fmt.Errorf("%q has no host", shown)
	case u.RawQuery != "" || u.ForceQuery:
		return nil, fmt.Errorf("%q has a query (?%s); a registry URL takes none, since request paths are joined to it", shown, u.RawQuery)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return nil, fmt.Errorf("%q has a fragment (#%s); a registry URL takes none", shown, u.Fragment)
	}
	return u, nil
}
