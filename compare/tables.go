package compare

import (
	"slices"

	"github.com/prerel/prerel/engine"
)

// versionList is one list of versions as a worker reads it once for every
// group that hands it over: each policy's engine.VersionTable, the
// engine's reading of each version, and, for selection, the versions in
// the order engine.SelectNewest prefers them.
type versionList struct {
	versions []string
	tables   []engine.VersionTable // per policy; nil until the first group reads it
	infos    []versionInfo         // nil until a version needs its shape
	newest   []int32               // nil until a group with a history needs it
	// picks keeps what a Selector picked from a set of the versions, by
	// the policy's index and the versions' indexes (uvarints); nil until
	// needed, at most maxKeptPicks
	picks map[string]string
	// once is set for a short list handed over for the first time: it is
	// judged on text (engine.TextTable), since reading it into a policy's
	// own table costs more than it saves for one constraint. A list handed
	// over again is read into each policy's own table.
	once bool
}

// minReadVersions is the length from which a list is read into the
// policies' own tables the first time it is handed over.
const minReadVersions = 16

// table returns policy p's table of the list, reading the versions the
// first time.
func (l *versionList) table(p int, pol engine.Policy) engine.VersionTable {
	if t := l.tables[p]; t != nil {
		return t
	}
	var t engine.VersionTable
	if l.once {
		t = engine.TextTable(pol, l.versions)
	} else {
		t = engine.ReadVersions(pol, l.versions)
	}
	l.tables[p] = t
	return t
}

// info returns the engine's reading of version i, reading every version
// of the list the first time.
func (l *versionList) info(i int) *versionInfo {
	if l.infos == nil {
		l.infos = make([]versionInfo, len(l.versions))
		for j, v := range l.versions {
			l.infos[j] = newVersionInfo(v)
		}
	}
	return &l.infos[i]
}

// newestOrder returns the indexes of the versions the engine reads, from
// the highest SemVer precedence to the lowest, equal ones in list order:
// the first one a policy allows is what engine.SelectNewest selects.
func (l *versionList) newestOrder() []int32 {
	if l.newest != nil {
		return l.newest
	}
	parsed := make([]engine.Version, len(l.versions))
	order := make([]int32, 0, len(l.versions))
	for i, text := range l.versions {
		v, err := engine.ParseVersion(text)
		if err != nil {
			continue // never selected: SelectNewest cannot order it
		}
		parsed[i] = v
		order = append(order, int32(i))
	}
	slices.SortStableFunc(order, func(a, b int32) int { return parsed[b].Compare(parsed[a]) })
	l.newest = order
	return order
}

// maxKeptPicks bounds the picks a list keeps.
const maxKeptPicks = 1 << 12

// keepPick keeps a Selector's pick from a set of the versions.
func (l *versionList) keepPick(key, picked string) {
	if l.picks == nil || len(l.picks) >= maxKeptPicks {
		l.picks = map[string]string{}
	}
	l.picks[key] = picked
}

// listKey identifies a list of versions by the identity of its slice:
// where its elements are and how many. A cached list keeps its slice, so
// its elements cannot be reused for another list while it is cached.
type listKey struct {
	first *string
	n     int
}

// maxCachedLists bounds the lists a worker keeps read, and
// maxCachedVersions the versions they hold together: the exhaustive
// domain hands every group the same list and the corpus domain one list
// per history, while the random and file domains hand each group a list
// of its own, which the cache then only passes through.
const (
	maxCachedLists    = 64
	maxCachedVersions = 1 << 18
)

// listCache keeps the lists a worker has read, the most recently added
// ones, up to maxCachedLists and maxCachedVersions.
type listCache struct {
	policies int
	lists    map[listKey]*versionList
	order    []listKey // oldest first
	versions int
}

// get returns the list for versions, read from the cache when the same
// slice was handed over before.
func (c *listCache) get(versions []string) *versionList {
	var k listKey
	if len(versions) > 0 {
		k = listKey{&versions[0], len(versions)}
	}
	if l := c.lists[k]; l != nil {
		if l.once {
			// handed over again: read it into the policies' own tables
			l.once = false
			clear(l.tables)
		}
		return l
	}
	l := &versionList{versions: versions, tables: make([]engine.VersionTable, c.policies), once: len(versions) < minReadVersions}
	if len(versions) > maxCachedVersions {
		return l
	}
	if c.lists == nil {
		c.lists = map[listKey]*versionList{}
	}
	for len(c.order) > 0 && (len(c.order) >= maxCachedLists || c.versions+len(versions) > maxCachedVersions) {
		old := c.order[0]
		c.order[0] = listKey{}
		c.order = c.order[1:]
		c.versions -= old.n
		delete(c.lists, old)
	}
	c.lists[k] = l
	c.order = append(c.order, k)
	c.versions += len(versions)
	return l
}

// drop forgets the list for versions, if the cache keeps it.
func (c *listCache) drop(versions []string) {
	if len(versions) == 0 {
		return
	}
	k := listKey{&versions[0], len(versions)}
	if _, ok := c.lists[k]; !ok {
		return
	}
	delete(c.lists, k)
	c.order = slices.DeleteFunc(c.order, func(o listKey) bool { return o == k })
	c.versions -= k.n
}
