package updaters

import "strings"

// rewriteRanges is rewriteRange of Masterminds/semver v3.3.1, which
// NewConstraint runs first: every hyphen range "A - B" that mmRange finds
// in c becomes ">= A, <= B ".
//
// The original replaces the ranges one after the other with
// strings.Replace(o, text, replacement, 1), which rewrites the first
// place the range's text occurs in the string rewritten so far. That is
// the range's own place unless the same text occurs earlier: in
// "1.0 - 2.0 - 3.0 || 2.0 - 3.0" the second range, " 2.0 - 3.0", is first
// found in "<= 2.0 - 3.0" that the first replacement left, and the
// result is ">= 1.0, <=>= 2.0, <= 3.0  || 2.0 - 3.0". Searching and
// copying the whole string once per range takes time quadratic in the
// number of ranges; this builds the same string in one pass over c.
//
// Every occurrence of a range's text has one hyphen with white space on
// both sides (the " - " of the range), and a replacement has none, so
// the text can occur before its own place only where the rewritten part
// holds such a hyphen. Until it does, each range is rewritten in place.
// From then on a firstFinder, which reads the rewritten part once as it
// grows, knows where each range's text first occurs in it; an occurrence
// that starts in the rewritten part and ends in the rest of c is looked
// for near the border. Only a range rewritten away from its own place
// makes the finder read the rewritten part again.
func rewriteRanges(c string) string {
	s, _ := rewriteRangesWork(c)
	return s
}

// rewriteRangesWork is rewriteRanges that also returns the work done: the
// bytes copied, read or compared and the steps of the finder.
func rewriteRangesWork(c string) (string, int) {
	if !spacedHyphen(c) {
		return c, 0 // mmRange needs white space before a hyphen
	}
	ms := mmRange.FindAllStringSubmatchIndex(c, -1)
	if ms == nil {
		return c, 0
	}
	w := rangeWriter{c: c, ranges: ms, out: make([]byte, 0, len(c)+8*len(ms))}
	for _, m := range ms {
		// Groups 1 and 11 of mmRange are the two versions.
		w.replace(m[0], m[1], c[m[2]:m[3]], c[m[22]:m[23]])
	}
	work := w.work + len(c) - w.cursor
	if w.find != nil {
		work += w.find.steps
	}
	return string(w.out) + c[w.cursor:], work
}

// spacedHyphen reports whether c holds a hyphen right after white space.
func spacedHyphen(c string) bool {
	for i := 1; i < len(c); i++ {
		if c[i] == '-' && mmSpace(c[i-1]) {
			return true
		}
	}
	return false
}

// rangeWriter is the state of rewriteRanges: the string rewritten so far
// is out followed by c[cursor:], which is unchanged.
type rangeWriter struct {
	c       string
	ranges  [][]int
	out     []byte
	cursor  int
	checked int            // out[1:checked] holds no hyphen between white space
	find    *firstFinder   // nil while out holds no hyphen between white space
	work    int            // bytes copied, read or compared, which a test bounds
	patIDs  map[string]int // the finder's pattern of each range text
	scratch []byte
}

// mmSpace reports whether b is matched by \s of Go's regexp.
func mmSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// replace rewrites the range c[start:end] of versions from and to as
// strings.Replace does.
func (w *rangeWriter) replace(start, end int, from, to string) {
	w.append(w.c[w.cursor:start])
	w.cursor = start
	text := w.c[start:end]
	if w.find == nil && w.holdsDash() {
		w.startFinder()
	}
	q := -1
	if w.find != nil {
		q = w.first(text)
	}
	if q < 0 { // the range's own place
		w.append(">= ")
		w.append(from)
		w.append(", <= ")
		w.append(to)
		w.append(" ")
		w.cursor = end
		return
	}
	r := ">= " + from + ", <= " + to + " "
	w.scratch = append(w.scratch[:0], w.out[:q]...)
	w.scratch = append(w.scratch, r...)
	if q+len(text) <= len(w.out) {
		w.scratch = append(w.scratch, w.out[q+len(text):]...)
	} else { // the occurrence ends in c[start:]
		w.cursor = start + q + len(text) - len(w.out)
	}
	w.out, w.scratch = w.scratch, w.out
	w.work += len(w.out)
	w.find.reset(w.out)
}

// append adds s to out, and gives it to the finder if there is one.
func (w *rangeWriter) append(s string) {
	n := len(w.out)
	w.out = append(w.out, s...)
	w.work += len(s)
	if w.find != nil {
		w.find.feed(w.out[n:])
	}
}

// holdsDash reports whether the rewritten string, out followed by
// c[cursor:], has a hyphen between white space that starts in out.
func (w *rangeWriter) holdsDash() bool {
	for i := max(w.checked, 1); i+1 < len(w.out); i++ {
		w.work++
		if w.out[i] == '-' && mmSpace(w.out[i-1]) && mmSpace(w.out[i+1]) {
			return true
		}
	}
	w.checked = max(w.checked, len(w.out)-1)
	n := len(w.out)
	return n >= 2 && w.cursor < len(w.c) && w.out[n-1] == '-' && mmSpace(w.out[n-2]) && mmSpace(w.c[w.cursor])
}

// startFinder makes the finder of every range's text and gives it out.
func (w *rangeWriter) startFinder() {
	w.patIDs = make(map[string]int, len(w.ranges))
	var pats []string
	for _, m := range w.ranges {
		t := w.c[m[0]:m[1]]
		if _, ok := w.patIDs[t]; !ok {
			w.patIDs[t] = len(pats)
			pats = append(pats, t)
			w.work += len(t)
		}
	}
	w.find = newFirstFinder(pats)
	w.find.reset(w.out)
	w.work += len(w.out)
}

// first returns where text first occurs in out followed by c[cursor:]
// if that is before len(out), the place of the range c[cursor:] starts
// with; otherwise -1.
func (w *rangeWriter) first(text string) int {
	if q := w.find.first[w.patIDs[text]]; q >= 0 {
		return q
	}
	// An occurrence that starts in out and ends in c[cursor:].
	lo := max(0, len(w.out)-(len(text)-1))
	border := string(w.out[lo:]) + w.c[w.cursor:w.cursor+len(text)-1]
	w.work += 2 * len(border)
	if i := strings.Index(border, text); i >= 0 {
		return lo + i
	}
	return -1
}

// firstFinder is an Aho-Corasick automaton of a set of patterns that
// records where each pattern first occurs in the bytes it is fed.
type firstFinder struct {
	// Per node of the trie of the patterns: its byte, first child, next
	// sibling, failure link, nearest node on the failure links that ends
	// a pattern (0: none), depth and the pattern it ends (-1: none).
	label                      []byte
	child, sibling, fail, dict []int32
	depth, pat                 []int32

	first []int // per pattern: where it first occurs, or -1
	state int32
	n     int // bytes fed since reset
	steps int // transitions and failure links followed
}

// newFirstFinder builds the automaton of the distinct, non-empty
// patterns pats.
func newFirstFinder(pats []string) *firstFinder {
	f := &firstFinder{first: make([]int, len(pats))}
	f.node(0, 0)
	for id, p := range pats {
		u := int32(0)
		for i := 0; i < len(p); i++ {
			v := f.next(u, p[i])
			if v == 0 {
				v = f.node(p[i], f.depth[u]+1)
				f.sibling[v] = f.child[u]
				f.child[u] = v
			}
			u = v
		}
		f.pat[u] = int32(id)
	}
	// Failure links, breadth first.
	queue := []int32{}
	for v := f.child[0]; v != 0; v = f.sibling[v] {
		queue = append(queue, v)
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for v := f.child[u]; v != 0; v = f.sibling[v] {
			g := f.fail[u]
			for g != 0 && f.next(g, f.label[v]) == 0 {
				g = f.fail[g]
			}
			f.fail[v] = f.next(g, f.label[v])
			if f.pat[f.fail[v]] >= 0 {
				f.dict[v] = f.fail[v]
			} else {
				f.dict[v] = f.dict[f.fail[v]]
			}
			queue = append(queue, v)
		}
	}
	return f
}

// node adds a node of byte b at depth d.
func (f *firstFinder) node(b byte, d int32) int32 {
	f.label = append(f.label, b)
	f.child = append(f.child, 0)
	f.sibling = append(f.sibling, 0)
	f.fail = append(f.fail, 0)
	f.dict = append(f.dict, 0)
	f.depth = append(f.depth, d)
	f.pat = append(f.pat, -1)
	return int32(len(f.label) - 1)
}

// next returns the child of u by b, or 0.
func (f *firstFinder) next(u int32, b byte) int32 {
	for v := f.child[u]; v != 0; v = f.sibling[v] {
		f.steps++
		if f.label[v] == b {
			return v
		}
	}
	return 0
}

// reset forgets what was fed, then feeds b.
func (f *firstFinder) reset(b []byte) {
	for i := range f.first {
		f.first[i] = -1
	}
	f.state, f.n = 0, 0
	f.feed(b)
}

// feed reads b, the bytes that follow the ones fed so far.
func (f *firstFinder) feed(b []byte) {
	u := f.state
	for _, c := range b {
		for {
			if v := f.next(u, c); v != 0 {
				u = v
				break
			}
			if u == 0 {
				break
			}
			u = f.fail[u]
			f.steps++
		}
		f.n++
		x := u
		if f.pat[x] < 0 {
			x = f.dict[x]
		}
		// A pattern already seen was seen with every shorter one that
		// ends it, so the walk stops at the first one seen.
		for x != 0 && f.first[f.pat[x]] < 0 {
			f.first[f.pat[x]] = f.n - int(f.depth[x])
			x = f.dict[x]
			f.steps++
		}
	}
	f.state = u
}
