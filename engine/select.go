package engine

import (
	"strconv"
	"strings"
)

// Selection is what a policy would install from a list of available
// versions: the newest one it admits.
type Selection struct {
	// Version is the selected version exactly as written in the list, or ""
	// when Found is false.
	Version string
	// Found reports whether some version was admitted.
	Found bool
	// Unreadable lists the versions of the list that the policy judged
	// Invalid (or admitted but could not order), with the reason, in list
	// order. They are never selected.
	Unreadable []Unreadable
}

// String returns the selected version, or "none" when Found is false,
// followed by how many listed versions could not be read, if any:
// "2.0.0-beta.2", "none (1 unreadable)".
func (s Selection) String() string {
	v := s.Version
	if !s.Found {
		v = "none"
	}
	switch n := len(s.Unreadable); n {
	case 0:
		return v
	case 1:
		return v + " (1 unreadable)"
	default:
		return v + " (" + strconv.Itoa(n) + " unreadable)"
	}
}

// NilMatcherReason is the reason SelectNewest gives for every version when
// it has no Matcher to judge them with.
const NilMatcherReason = "no matcher to judge it with (nil matcher)"

// Unreadable is a listed version a policy could not read, and why.
type Unreadable struct {
	Version string `json:"version"`
	Reason  string `json:"reason"`
}

// Selector is implemented by a Policy that selects from the whole list
// itself: selection-level policies whose rule depends on the list, and
// adapters that order versions by their library's precedence.
type Selector interface {
	Select(constraint string, available []string) (Selection, error)
}

// Select returns the newest version of available that p admits for
// constraint, as "terraform init" would pick it. A Policy that implements
// Selector decides itself; otherwise each version is matched and the
// admitted ones are ordered by SemVer precedence (ties keep list order; a
// version of more than three parts as ParseMultipartVersion reads it). The
// error is the policy's refusal of the constraint; a nil p is ErrNilPolicy,
// and a p whose Compile returns neither a Matcher nor an error is
// ErrNilMatcher under the policy's name.
func Select(p Policy, constraint string, available []string) (Selection, error) {
	if isNil(p) {
		return Selection{}, ErrNilPolicy
	}
	if s, ok := p.(Selector); ok {
		return s.Select(constraint, available)
	}
	m, err := compile(p, constraint)
	if err != nil {
		return Selection{}, err
	}
	return SelectNewest(m, available), nil
}

// SelectNewest matches every version of available with m and returns the
// newest admitted one by SemVer precedence (ties keep list order). A nil
// m admits nothing: Found is false and every version is Unreadable, with
// NilMatcherReason as the reason.
func SelectNewest(m Matcher, available []string) Selection {
	return selectNewest(m, available, false)
}

// SelectReleasesFirst is SelectNewest with releases first: the newest
// release m admits, and only when it admits none the newest prerelease,
// as Go's version queries and PEP 440 select. Versions are read and
// reported unreadable as by SelectNewest.
func SelectReleasesFirst(m Matcher, available []string) Selection {
	return selectNewest(m, available, true)
}

// selectNewest is SelectNewest, with the prereleases kept apart as a
// last resort when releasesFirst is set.
func selectNewest(m Matcher, available []string, releasesFirst bool) Selection {
	var sel Selection
	if isNil(m) {
		for _, text := range available {
			sel.Unreadable = append(sel.Unreadable, Unreadable{text, NilMatcherReason})
		}
		return sel
	}
	var best, bestPrerelease Version
	var prereleaseText string
	foundPrerelease := false
	for _, text := range available {
		r := m.Match(text)
		switch r.Verdict {
		case Invalid:
			sel.Unreadable = append(sel.Unreadable, Unreadable{text, ClipReason(r.Reason)})
			continue
		case Reject:
			continue
		}
		v, err := ParseVersion(text)
		if err != nil {
			// A version of more than three parts, which core-only may
			// admit, is ordered as ParseMultipartVersion reads it.
			if mv, merr := ParseMultipartVersion(text); merr == nil {
				v, err = mv, nil
			}
		}
		if err != nil {
			sel.Unreadable = append(sel.Unreadable, Unreadable{text, "admitted but cannot be ordered: " + ClipReason(err.Error())})
			continue
		}
		if releasesFirst && v.IsPrerelease() {
			if !foundPrerelease || bestPrerelease.Compare(v) < 0 {
				foundPrerelease, bestPrerelease, prereleaseText = true, v, text
			}
			continue
		}
		if !sel.Found || best.Compare(v) < 0 {
			sel.Found, sel.Version, best = true, text, v
		}
	}
	if !sel.Found && foundPrerelease {
		sel.Found, sel.Version = true, prereleaseText
	}
	return sel
}

// FindListed finds version among listed, as a wanted exact version is
// found in a registry's list: the same text, else the same version read
// without a leading "v" on either side, build metadata included. It
// returns the listed text.
func FindListed(version string, listed []string) (string, bool) {
	for _, s := range listed {
		if s == version {
			return s, true
		}
	}
	want, err := ParseVersion(strings.TrimPrefix(version, "v"))
	if err != nil {
		return "", false
	}
	for _, s := range listed {
		v, err := ParseVersion(strings.TrimPrefix(s, "v"))
		if err == nil && v.Equal(want) && v.Build() == want.Build() {
			return s, true
		}
	}
	return "", false
}
