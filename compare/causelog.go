package compare

// runCases is what a run keeps of its groups so that the steps of
// CauseOf can find the cases of the run among theirs: the rewritten case
// of a step is often a case of the domain (the canonical form of a
// constraint, the same constraint without a prerelease, ...), whose
// verdicts the run's verdict log already holds. Such a case is read from
// the log instead of being judged again; the log's verdicts are those of
// the run's judging, which is Compile and Match (VersionTable's
// contract), as the steps' judging is.
//
// It keeps, for each group, its constraint, its offset in the domain's
// order and its list of versions, the lists told apart as the run's
// listCache tells them (the same slice), up to maxKeptGroups groups and
// maxKeptVersions versions in distinct lists: a domain with more keeps
// none, and its steps are judged as before. It lives as long as the
// run's report is being built.
type runCases struct {
	log    *verdictLog
	groups []runGroup
	lists  [][]string        // the distinct lists of the groups
	listOf map[listKey]int32 // a list's index in lists
	count  int               // versions in lists
	full   bool              // more than kept: nothing is
}

// runGroup is a group of the run as runCases keeps it.
type runGroup struct {
	constraint string
	offset     int64 // the position of its first case in the domain's order
	list       int32 // its versions: runCases.lists[list]
}

// Bounds of runCases.
const (
	maxKeptGroups   = 1 << 15
	maxKeptVersions = 1 << 16
)

// newRunCases returns an empty runCases for a run whose verdicts go to
// log, or nil when the run keeps no log.
func newRunCases(log *verdictLog) *runCases {
	if log == nil {
		return nil
	}
	return &runCases{log: log, listOf: map[listKey]int32{}}
}

// add keeps group g, whose first case is at offset in the domain's
// order, unless k already holds as many groups or versions as it keeps;
// then it drops all.
func (k *runCases) add(g Group, offset int64) {
	if k == nil || k.full || len(g.Versions) == 0 {
		return
	}
	if len(k.groups) == maxKeptGroups {
		k.drop()
		return
	}
	key := listKeyOf(g.Versions) // a domain does not change a list it has handed over
	var list int32
	if n := len(k.groups); n > 0 && listKeyOf(k.lists[k.groups[n-1].list]) == key {
		list = k.groups[n-1].list // groups that share a list mostly come one after the other
	} else if l, ok := k.listOf[key]; ok {
		list = l
	} else {
		if k.count+len(g.Versions) > maxKeptVersions {
			k.drop()
			return
		}
		list = int32(len(k.lists))
		k.listOf[key] = list
		k.lists = append(k.lists, g.Versions)
		k.count += len(g.Versions)
	}
	k.groups = append(k.groups, runGroup{constraint: g.Constraint, offset: offset, list: list})
}

// listKeyOf is the listKey of a list that is not empty.
func listKeyOf(l []string) listKey { return listKey{&l[0], len(l)} }

// drop lets go of every group: the domain has more than runCases keeps.
func (k *runCases) drop() {
	k.full, k.groups, k.lists, k.listOf = true, nil, nil, nil
}

// runCaseIndex finds the cases of the run among the cases of the steps
// of the witnesses, whose constraints are numbered (numberConstraints).
type runCaseIndex struct {
	log      *verdictLog
	groupsOf [][]runGroup       // by constraint number: the groups of that constraint
	position []map[string]int32 // by list: version -> its position; nil until a group needs it
	lists    [][]string
}

// index returns the index of the cases of the run for the steps whose
// constraints number gives (constraint -> its number, from 0), or nil
// when k is nil, keeps nothing, or its log is incomplete.
func (k *runCases) index(number map[string]int32) *runCaseIndex {
	if k == nil || k.full || k.log.overflow.Load() || len(k.groups) == 0 {
		return nil
	}
	x := &runCaseIndex{log: k.log, groupsOf: make([][]runGroup, len(number)),
		position: make([]map[string]int32, len(k.lists)), lists: k.lists}
	for _, g := range k.groups {
		n, ok := number[g.constraint]
		if !ok {
			continue
		}
		x.groupsOf[n] = append(x.groupsOf[n], g)
		if x.position[g.list] == nil {
			l := k.lists[g.list]
			m := make(map[string]int32, len(l))
			for i := len(l) - 1; i >= 0; i-- { // the first of a version written twice
				m[l[i]] = int32(i)
			}
			x.position[g.list] = m
		}
	}
	return x
}

// offset is the position in the domain's order of the case (the
// constraint numbered number, version), or -1 when it is not a case of
// the run or x is nil.
func (x *runCaseIndex) offset(number int32, version string) int64 {
	if x == nil || number < 0 {
		return -1
	}
	for _, g := range x.groupsOf[number] {
		if i, ok := x.position[g.list][version]; ok {
			return g.offset + int64(i)
		}
	}
	return -1
}
