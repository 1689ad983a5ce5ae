package registry

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// URLs are the discovery URLs of a run, as prerel's --registry-url gives
// them: All for every host (Client.BaseURL) and Hosts for the hosts it
// names, lower case (Client.HostURLs).
type URLs struct {
	All   string
	Hosts map[string]string
}

// Add reads URL, for every host, or HOST=URL for one, the URL checked by
// ParseBaseURL; a second URL for every host, or for one host, is refused.
func (u *URLs) Add(s string) error {
	host, raw := "", s
	if i, j := strings.Index(s, "="), strings.Index(s, "://"); i > 0 && (j < 0 || i < j) {
		host, raw = strings.ToLower(s[:i]), s[i+1:]
	}
	if _, err := ParseBaseURL(raw); err != nil {
		return err
	}
	if host == "" {
		if u.All != "" {
			return errors.New("a URL for every host is already given; use HOST=URL for more")
		}
		u.All = raw
		return nil
	}
	if _, ok := u.Hosts[host]; ok {
		return fmt.Errorf("a URL for host %q is already given", host)
	}
	if u.Hosts == nil {
		u.Hosts = map[string]string{}
	}
	u.Hosts[host] = raw
	return nil
}

// Given reports whether some URL is given.
func (u *URLs) Given() bool { return u.All != "" || len(u.Hosts) > 0 }

// String lists the URLs as Add reads them, the one for every host first,
// then by host, each password redacted (RedactURL).
func (u *URLs) String() string {
	if u == nil {
		return ""
	}
	var parts []string
	if u.All != "" {
		parts = append(parts, u.All)
	}
	for _, h := range slices.Sorted(maps.Keys(u.Hosts)) {
		parts = append(parts, h+"="+u.Hosts[h])
	}
	return RedactURL(strings.Join(parts, " "))
}
