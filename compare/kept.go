package compare

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/internal/printable"
)

// A KeptCheck checks that witnesses read from the aggregates of runs of
// some groups of a domain (RunGroups, a shard) are the ones those runs
// keep: the witness of a class, or of a split, is the smallest case of
// it (in the order the report states: fewest comparators, then the
// smallest numbers, then the shortest text, then byte order) among the
// cases of the groups the run judged. Another case of the class, of
// those groups or others, would make a merged report differ from the
// report of the whole run. So would another witness of a pair's
// selection than the smallest of the run's groups with a history where
// the two policies install different versions (in the order
// selectionKey states: fewest comparators, then the smallest numbers,
// then the shortest constraint, then byte order of the constraint and of
// the history), with what each installs there.
//
// Note each run with AddPart and its witnesses with AddClass, AddSplit
// and AddSelection; give the policies with Judge, hand Group every group
// of the domain, in order, and read the verdict on each witness with
// Kept and KeptSelection. The check judges only the cases of a witness's
// shape (or refusal) that come before it, and the groups of a selection
// witness's run that come before it or are its group; for a witness that
// no group of its run holds, a second walk (Unbound, UnboundSelection)
// finds the case or group the run keeps.
type KeptCheck struct {
	names    []string
	policies []engine.Policy
	parts    []func(index int64) bool
	ws       []keptWitness
	// The witnesses by what a case of their class has, each list sorted
	// by key from the largest: the case shape (classes without a
	// refusal, and splits), the refusal of the version, and per policy
	// the refusal of the constraint.
	byShape, byVersion map[string][]int32
	byConstraint       []map[string][]int32
	texts              []string          // shapes and split verdicts, by number
	textIDs            map[string]int32  // the number of each
	versions           map[string]string // the version texts of witnesses, one copy each
	betters            []caseKey
	// maxConstraint is, per policy, the largest key of a witness of a
	// refused constraint: a group whose cases all come after it is not
	// compiled for them.
	maxConstraint []caseKey
	sorted        bool
	only          int                       // after Unbound, the one witness looked for; -1 otherwise
	read          map[string]constraintInfo // the constraints of witnesses: their comparators and numbers

	// The witnesses of selections (keptselection.go), and their order by
	// key, from the largest.
	sels       []keptSelection
	selOrder   []int32
	selSorted  bool
	selBetters []keptGroup
	onlySel    int       // after UnboundSelection, the one selection witness looked for; -1 otherwise
	lists      listCache // the lists of versions met, read as a run reads them

	// Per group.
	ci          constraintInfo
	shapes      groupShapes
	index       int64
	owned       []int8 // per part: 0 not known yet, 1 owned, 2 not
	matchers    []engine.Matcher
	compErrs    []error
	compiled    []bool
	verdicts    []int8       // of a version: 0 not judged yet, else the verdict + 1
	picks       []string     // per policy: what it installs from the group's versions
	picked      []bool       // per policy: whether picks holds it yet
	list        *versionList // the group's, once a pick needs it
	selVerdicts []engine.Verdict
	admitted    []string // the versions a Selector allows, for pickOf
	key         []byte   // for pickOf
}

// keptWitness is a witness noted by a KeptCheck. It holds no pointer
// but the texts of its case, which are shared with the witnesses of the
// same constraint or version: a merge notes hundreds of thousands.
type keptWitness struct {
	part     int32
	a, b     int32 // the pair's policies; -1 for a split
	va, vb   engine.Verdict
	held     bool  // a group of its run holds it
	shape    int32 // in texts
	verdicts int32 // of a split, in texts: one byte per policy (the verdict)
	better   int32 // in betters: the smallest case of its class in its run's groups, when it comes before key; -1 none
	key      caseKey
}

// KeptWitness is a witness a KeptCheck notes, for messages: its run
// (AddPart's number), the class (the pair's policies A and B, indexes,
// the shape and their verdicts) or split (A and B -1, the shape and the
// verdict of every policy), and its case.
type KeptWitness struct {
	Part                int
	A, B                int
	Shape               string
	VA, VB              engine.Verdict
	Verdicts            []engine.Verdict
	Constraint, Version string
}

// NewKeptCheck returns a check of the witnesses of runs of the policies
// named, in run order.
func NewKeptCheck(names []string) *KeptCheck {
	n := len(names)
	return &KeptCheck{
		names:         names,
		byShape:       map[string][]int32{},
		byVersion:     map[string][]int32{},
		byConstraint:  make([]map[string][]int32, n),
		maxConstraint: make([]caseKey, n),
		only:          -1,
		onlySel:       -1,
		read:          map[string]constraintInfo{},
		textIDs:       map[string]int32{},
		versions:      map[string]string{},
	}
}

// Names are the names of the policies, as NewKeptCheck was given them.
func (k *KeptCheck) Names() []string { return k.names }

// Len is the number of witnesses of classes and splits noted; Selections
// counts those of selections.
func (k *KeptCheck) Len() int { return len(k.ws) }

// AddPart notes a run of the groups for which own is true, given their
// index in the order the domain yields them (from 0), and returns its
// number.
func (k *KeptCheck) AddPart(own func(index int64) bool) int {
	k.parts = append(k.parts, own)
	return len(k.parts) - 1
}

// AddClass notes the witness (constraint, version) that run part keeps
// of the class (shape, va, vb) of the pair of policies a and b (indexes
// into the names), and returns its number.
func (k *KeptCheck) AddClass(part, a, b int, shape string, va, vb engine.Verdict, constraint, version string) int {
	id := k.add(keptWitness{part: int32(part), a: int32(a), b: int32(b), va: va, vb: vb, shape: k.text(shape)}, constraint, version)
	shape = k.texts[k.ws[id].shape]
	refuser := -1
	switch {
	case va == engine.Invalid:
		refuser = a
	case vb == engine.Invalid:
		refuser = b
	}
	switch {
	case refuser < 0:
		k.byShape[shape] = append(k.byShape[shape], int32(id))
	case strings.HasPrefix(shape, "version refused: "):
		k.byVersion[shape] = append(k.byVersion[shape], int32(id))
	case strings.HasPrefix(shape, "constraint refused"):
		if k.byConstraint[refuser] == nil {
			k.byConstraint[refuser] = map[string][]int32{}
			k.maxConstraint[refuser] = k.ws[id].key
		}
		k.byConstraint[refuser][shape] = append(k.byConstraint[refuser][shape], int32(id))
		if k.maxConstraint[refuser].less(k.ws[id].key) {
			k.maxConstraint[refuser] = k.ws[id].key
		}
	}
	// A shape no case of the class can have: the witness is found
	// nowhere.
	return id
}

// AddSplit notes the witness (constraint, version) that run part keeps
// of the split (shape, verdicts), verdicts giving every policy's, and
// returns its number.
func (k *KeptCheck) AddSplit(part int, shape string, verdicts []engine.Verdict, constraint, version string) int {
	b := make([]byte, len(verdicts))
	for i, v := range verdicts {
		b[i] = byte(v)
	}
	id := k.add(keptWitness{part: int32(part), a: -1, b: -1, verdicts: k.text(string(b)), shape: k.text(shape)}, constraint, version)
	shape = k.texts[k.ws[id].shape]
	k.byShape[shape] = append(k.byShape[shape], int32(id))
	return id
}

func (k *KeptCheck) add(w keptWitness, constraint, version string) int {
	// Many witnesses share a constraint: its part of the key is read
	// once.
	ci, ok := k.read[constraint]
	if !ok {
		full := newConstraintInfo(constraint)
		ci = constraintInfo{text: constraint, comps: full.comps, nums: full.nums}
		if len(k.read) >= 1<<16 {
			clear(k.read)
		}
		k.read[constraint] = ci
	}
	if v, ok := k.versions[version]; ok {
		version = v
	} else {
		if len(k.versions) >= 1<<16 {
			clear(k.versions)
		}
		k.versions[version] = version
	}
	vi := versionInfo{text: version, nums: sumNumbers(version)}
	w.key = makeCaseKey(&ci, &vi)
	w.better = -1
	k.ws = append(k.ws, w)
	k.sorted = false
	return len(k.ws) - 1
}

// Witness returns what witness id is.
func (k *KeptCheck) Witness(id int) KeptWitness {
	w := &k.ws[id]
	out := KeptWitness{Part: int(w.part), A: int(w.a), B: int(w.b), Shape: k.texts[w.shape], VA: w.va, VB: w.vb,
		Constraint: w.key.constraint, Version: w.key.version}
	if w.a < 0 {
		for _, v := range []byte(k.texts[w.verdicts]) {
			out.Verdicts = append(out.Verdicts, engine.Verdict(v))
		}
	}
	return out
}

// Judge sets the policies that judge the cases: those the names given
// to NewKeptCheck name, in that order.
func (k *KeptCheck) Judge(policies []engine.Policy) error {
	names := make([]string, len(policies))
	for i, p := range policies {
		if p == nil {
			return fmt.Errorf("compare: policy %d of %d is nil", i+1, len(policies))
		}
		names[i] = p.Name()
	}
	if !slices.Equal(names, k.names) {
		return fmt.Errorf("compare: the witnesses are of the policies %s, in this order, and cannot be judged with %s",
			printable.String(engine.ClipReason(strings.Join(k.names, ", "))), printable.String(engine.ClipReason(strings.Join(names, ", "))))
	}
	n := len(policies)
	k.policies = policies
	k.matchers, k.compErrs, k.compiled, k.verdicts = make([]engine.Matcher, n), make([]error, n), make([]bool, n), make([]int8, n)
	k.picks, k.picked = make([]string, n), make([]bool, n)
	k.lists = listCache{policies: n}
	return nil
}

// Unbound prepares a second walk of the domain that looks for the case
// the run of witness id keeps, wherever it is in the order: for a
// witness that no group of its run holds, and no case of its class
// before it either (Kept).
func (k *KeptCheck) Unbound(id int) {
	k.only = id
	k.ws[id].better = -1
}

// Kept reports whether a group of the run of witness id holds it (as a
// case of the class's shape or refusal), and the smallest case of its class that such groups
// hold when that comes before the witness or, after Unbound, wherever it
// is; found is false when there is none. The witness is the case its run
// keeps when held is true and found is false.
func (k *KeptCheck) Kept(id int) (held bool, constraint, version string, found bool) {
	w := &k.ws[id]
	if w.better < 0 {
		return w.held, "", "", false
	}
	b := &k.betters[w.better]
	return w.held, b.constraint, b.version, true
}

// sort orders each list of witnesses by key, from the largest.
func (k *KeptCheck) sort() {
	if k.sorted {
		return
	}
	byKey := func(x, y int32) int {
		switch {
		case k.ws[y].key.less(k.ws[x].key):
			return -1
		case k.ws[x].key.less(k.ws[y].key):
			return 1
		}
		return 0
	}
	for _, m := range append([]map[string][]int32{k.byShape, k.byVersion}, k.byConstraint...) {
		for _, ids := range m {
			slices.SortFunc(ids, byKey)
		}
	}
	k.sorted = true
}

// owns reports whether the run of w judged the current group.
func (k *KeptCheck) owns(w *keptWitness) bool { return k.ownsPart(w.part) }

// ownsPart reports whether run part judged the current group.
func (k *KeptCheck) ownsPart(part int32) bool {
	o := &k.owned[part]
	if *o == 0 {
		*o = 2
		if k.parts[part](k.index) {
			*o = 1
		}
	}
	return *o == 1
}

// compile compiles the group's constraint with policy p, once, and
// returns Compile's error.
func (k *KeptCheck) compile(p int, constraint string) error {
	if !k.compiled[p] {
		k.matchers[p], k.compErrs[p] = k.policies[p].Compile(constraint)
		k.compiled[p] = true
	}
	return k.compErrs[p]
}

// Group looks at the cases of g, the group of the given index in the
// order the domain yields them, judging those that may be of the class
// of a witness before it with the policies of Judge, and, when g has a
// history, working out what the policies of the pair of a selection
// witness install from its versions when g may be kept before that
// witness. It fails with a PanicError when a policy panics.
func (k *KeptCheck) Group(index int64, g Group) (err error) {
	if k.policies == nil {
		return fmt.Errorf("compare: no policies to judge the witnesses with")
	}
	k.sort()
	policy, version := -1, ""
	defer func() {
		if r := recover(); r != nil {
			name := ""
			if policy >= 0 {
				name = k.policies[policy].Name()
			}
			err = &PanicError{Policy: name, Constraint: g.Constraint, Version: version, Value: r, Stack: debug.Stack()}
		}
	}()
	k.index = index
	k.owned = slices.Grow(k.owned[:0], len(k.parts))[:len(k.parts)]
	clear(k.owned)
	clear(k.compiled)
	k.ci = newConstraintInfo(g.Constraint)
	k.groupSelections(g, &policy, &version)
	if k.onlySel >= 0 {
		return nil // a walk for one selection witness
	}
	k.shapes.reset(&k.ci)

	infos := make([]versionInfo, len(g.Versions))
	keys := make([]caseKey, len(g.Versions))
	var least *caseKey
	for i, v := range g.Versions {
		infos[i] = newVersionInfo(v)
		keys[i] = makeCaseKey(&k.ci, &infos[i])
		if least == nil || keys[i].less(*least) {
			least = &keys[i]
		}
	}
	// The witnesses of the refusals of this constraint.
	var refused [][]int32
	for p, m := range k.byConstraint {
		if m == nil || least == nil || k.only < 0 && k.maxConstraint[p].less(*least) {
			continue
		}
		policy = p
		if k.compile(p, g.Constraint) == nil {
			continue
		}
		if ids := m[refusedConstraint(policyCompiles(k.policies[p]), &k.ci, k.shapes.spaced)]; ids != nil {
			refused = append(refused, ids)
		}
	}
	verdict := func(p int) engine.Verdict {
		if k.verdicts[p] == 0 {
			policy = p
			if k.compile(p, g.Constraint) != nil || k.matchers[p] == nil { // Invalid, as engine.Evaluate
				k.verdicts[p] = int8(engine.Invalid) + 1
			} else {
				k.verdicts[p] = int8(k.matchers[p].Match(version).Verdict) + 1
			}
		}
		return engine.Verdict(k.verdicts[p] - 1)
	}
	for i, v := range g.Versions {
		version = v
		vi, key := &infos[i], &keys[i]
		clear(k.verdicts)
		look := func(ids []int32) {
			for _, id := range ids {
				w := &k.ws[id]
				switch {
				case k.only >= 0:
					if int(id) != k.only {
						continue
					}
				case w.key.less(*key):
					return // and so do the others
				case !key.less(w.key): // the witness itself; Report judges it
					if k.owns(w) {
						w.held = true
					}
					continue
				}
				if !k.owns(w) || w.better >= 0 && !key.less(k.betters[w.better]) {
					continue
				}
				if k.inClass(w, vi, verdict, g.Constraint) {
					if w.better < 0 {
						w.better = int32(len(k.betters))
						k.betters = append(k.betters, caseKey{})
					}
					k.betters[w.better] = *key
				}
			}
		}
		look(k.byShape[k.shapes.shapeOf(vi)])
		if len(k.byVersion) > 0 {
			look(k.byVersion[versionRefusal(vi)])
		}
		for _, ids := range refused {
			look(ids)
		}
	}
	return nil
}

// inClass reports whether the case of vi in the current group, of
// constraint, is of the class or split of w.
func (k *KeptCheck) inClass(w *keptWitness, vi *versionInfo, verdict func(int) engine.Verdict, constraint string) bool {
	if w.a < 0 {
		verdicts := k.texts[w.verdicts]
		for p := range len(verdicts) {
			if verdict(p) != engine.Verdict(verdicts[p]) {
				return false
			}
		}
		return k.shapes.shapeOf(vi) == k.texts[w.shape]
	}
	va, vb := verdict(int(w.a)), verdict(int(w.b))
	if va != w.va || vb != w.vb {
		return false
	}
	var shape string
	switch {
	case va == engine.Invalid:
		shape = k.shapes.refusal(k.policies[w.a], k.compile(int(w.a), constraint) != nil, vi)
	case vb == engine.Invalid:
		shape = k.shapes.refusal(k.policies[w.b], k.compile(int(w.b), constraint) != nil, vi)
	default:
		shape = k.shapes.shapeOf(vi)
	}
	return shape == k.texts[w.shape]
}

// text returns the number of s in k.texts, adding it.
func (k *KeptCheck) text(s string) int32 {
	if id, ok := k.textIDs[s]; ok {
		return id
	}
	id := int32(len(k.texts))
	k.texts = append(k.texts, s)
	k.textIDs[s] = id
	return id
}
