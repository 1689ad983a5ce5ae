package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel"
	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/hclpolicy"
	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/rowgroups"
	"github.com/prerel/prerel/internal/timeline"
	"github.com/prerel/prerel/report"
)

// Limits of a request.
const (
	// MaxConstraint is the longest constraint, in bytes.
	MaxConstraint = 4 << 10
	// MaxVersionsText is the longest versions text, in bytes.
	MaxVersionsText = 1 << 20
	// MaxVersions is how many versions one request may judge.
	MaxVersions = 5000
	// MaxHCL is the longest HCL policy text, in bytes.
	MaxHCL = 64 << 10
	// MaxPolicies is how many policy names a request may choose.
	MaxPolicies = 256
	// MaxArgument is the longest JSON argument Call reads, in bytes.
	MaxArgument = 2 << 20
)

// HCLFile is the file name the pasted HCL policy text is read as; its
// diagnostics and explanations name it.
const HCLFile = "pasted.hcl"

// Origins of a policy.
const (
	OriginCatalogue = "catalogue" // one of prerel's policies
	OriginHCL       = "hcl"       // declared in the pasted HCL text
)

// Playground answers the page's requests over a registry of policies and
// a corpus of histories. It is safe for concurrent use.
type Playground struct {
	registry  *engine.Registry
	histories []History
	byName    map[string]int

	mu     sync.Mutex
	cached *hclPolicies // the policies of the last HCL text

	// Progress, when set, is told what the playground is about to work
	// on: ProgressLoading before it reads an HCL text, and the name of an
	// HCL policy before that policy judges a constraint's versions,
	// selects from them or explains a version. The page's worker posts it
	// to the page, so that a request that runs too long can say which
	// policy ran too long. Set it before the first request.
	Progress func(what string)
}

// ProgressLoading is what Progress is told before an HCL text is read.
const ProgressLoading = "(loading the HCL text)"

// History is one version history of the corpus.
type History struct {
	// Name is the history's name: the file versions/NAME.txt.
	Name string `json:"name"`
	// Kind is core, provider, module or tool.
	Kind string `json:"kind"`
	// Versions are the versions as published, in the file's order.
	Versions []string `json:"versions"`
}

// HistoryInfo describes a history without its versions.
type HistoryInfo struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// PolicyInfo names a policy, its rule, where it comes from and the group
// the page shows it in.
type PolicyInfo struct {
	Name string `json:"name"`
	Rule string `json:"rule"`
	// Origin is OriginCatalogue or OriginHCL.
	Origin string `json:"origin"`
	// Group is one of catalogue.Groups: catalogue.Group of the name for
	// a policy of the catalogue, catalogue.GroupOwn for any other.
	Group string `json:"group"`
}

// Limits are the package's limits, for the page to say them.
type Limits struct {
	Constraint   int `json:"constraint"`
	VersionsText int `json:"versions_text"`
	Versions     int `json:"versions"`
	HCL          int `json:"hcl"`
	Policies     int `json:"policies"`
}

// Info is what the page needs before its first request.
type Info struct {
	Policies  []PolicyInfo  `json:"policies"`
	Histories []HistoryInfo `json:"histories"`
	Limits    Limits        `json:"limits"`
	// Groups are the groups of the policies, in the order the page shows
	// them (catalogue.Groups).
	Groups []string `json:"groups"`
	// Today are the policies that are today's rule
	// (catalogue.TodayPolicies), whose columns the page marks.
	Today []string `json:"today"`
}

// Request is the page's state.
type Request struct {
	Constraint string `json:"constraint"`
	// Versions is the text of the versions box, one version a line (see
	// SplitVersions).
	Versions string `json:"versions"`
	// Policies names the policies to run, in the order to show them;
	// empty means every policy: the registry's, then the HCL text's.
	Policies []string `json:"policies"`
	// HCL is policy text, as in a --policy-file; "" for none.
	HCL string `json:"hcl"`
}

// ExplainRequest asks for one policy's reasoning on one version, with
// the page's state (for its HCL policies).
type ExplainRequest struct {
	Request
	Policy  string `json:"policy"`
	Version string `json:"version"`
}

// Answer is what the page shows for a Request.
type Answer struct {
	Constraint string `json:"constraint"`
	// ConstraintError is why the engine's parser refuses the constraint,
	// "" when it reads it. prerel check refuses such a constraint; the
	// page still shows each policy's verdict.
	ConstraintError string `json:"constraint_error,omitempty"`
	// Versions are the versions judged, in the order given.
	Versions []string `json:"versions"`
	// Unreadable is how many of them the engine's parser cannot read;
	// each policy judges them as they are.
	Unreadable int `json:"unreadable"`
	// Policies are the policies run, in order.
	Policies []PolicyInfo `json:"policies"`
	// Available are every policy that could be chosen: the registry's,
	// then the HCL text's.
	Available []PolicyInfo `json:"available"`
	// Check is what prerel check --format json prints for the request.
	Check report.CheckReport `json:"check"`
	// Select is what prerel select --format json prints for it.
	Select report.SelectReport `json:"select"`
	// Groups are the versions of Check grouped by the pattern of their
	// verdicts (package internal/rowgroups), the groups that hold a
	// prerelease the policies disagree on first, then the other groups
	// they disagree on, then those they agree on; each says in words what
	// sets it apart, naming the policies in the order of the page's
	// columns (by group, as Columns orders them) and today's rule as such.
	// The page shows them rather than a row for each version when there
	// are many versions.
	Groups []rowgroups.Group `json:"groups"`
	// Summary is the answer in one sentence.
	Summary string `json:"summary"`
	// Timeline is the SVG of the verdicts and selections, "" when there
	// is no version or no policy.
	Timeline string `json:"timeline"`
	// HCLErrors are the problems of the HCL text, one a line, as prerel
	// prints diagnostics; its policies are left out when there are any.
	HCLErrors []string `json:"hcl_errors,omitempty"`
	// Notes say what else the page should tell: policy names it did not
	// find.
	Notes []string `json:"notes,omitempty"`
}

// New returns a playground over prerel's catalogue and built-in corpus.
func New() (*Playground, error) {
	return NewWith(catalogue.New(), prerel.Corpus())
}

// NewWith returns a playground over the policies of reg and the
// histories of corpus, laid out as prerel's testdata/corpus (versions/
// NAME.txt, and histories.tsv for their kinds; a history it does not
// list is a tool). A nil corpus has no histories.
func NewWith(reg *engine.Registry, corpus fs.FS) (*Playground, error) {
	if reg == nil {
		return nil, errors.New("playground: no policy registry")
	}
	p := &Playground{registry: reg, byName: map[string]int{}}
	if corpus == nil {
		return p, nil
	}
	hs, err := readHistories(corpus)
	if err != nil {
		return nil, fmt.Errorf("playground: corpus: %w", err)
	}
	p.histories = hs
	for i, h := range hs {
		p.byName[h.Name] = i
	}
	return p, nil
}

// readHistories reads versions/*.txt, in name order, with the kinds of
// histories.tsv.
func readHistories(corpus fs.FS) ([]History, error) {
	kinds := map[string]string{}
	if data, err := fs.ReadFile(corpus, "histories.tsv"); err == nil {
		for i, line := range strings.Split(string(data), "\n") {
			f := strings.Split(strings.TrimSpace(line), "\t")
			if i == 0 || len(f) < 2 {
				continue // the header, or a blank line
			}
			kinds[f[0]] = f[1]
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	files, err := fs.Glob(corpus, "versions/*.txt")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var hs []History
	for _, name := range files {
		data, err := fs.ReadFile(corpus, name)
		if err != nil {
			return nil, err
		}
		h := History{Name: strings.TrimSuffix(path.Base(name), ".txt"), Kind: "tool"}
		if k, ok := kinds[h.Name]; ok {
			h.Kind = k
		}
		h.Versions = SplitVersions(string(data))
		hs = append(hs, h)
	}
	return hs, nil
}

// SplitVersions reads a versions text as prerel reads a --versions-file:
// one version a line, surrounding spaces trimmed, blank lines and lines
// starting with # skipped.
func SplitVersions(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}

// Info lists the registry's policies, the histories and the limits.
func (p *Playground) Info() Info {
	info := Info{
		Policies:  p.catalogueInfo(),
		Histories: make([]HistoryInfo, len(p.histories)),
		Limits:    Limits{MaxConstraint, MaxVersionsText, MaxVersions, MaxHCL, MaxPolicies},
		Groups:    catalogue.Groups(),
		Today:     catalogue.TodayPolicies(),
	}
	for i, h := range p.histories {
		info.Histories[i] = HistoryInfo{Name: h.Name, Kind: h.Kind, Count: len(h.Versions)}
	}
	return info
}

func (p *Playground) catalogueInfo() []PolicyInfo {
	var out []PolicyInfo
	for _, q := range p.registry.All() {
		out = append(out, PolicyInfo{Name: q.Name(), Rule: q.Rule(), Origin: OriginCatalogue, Group: catalogue.Group(q.Name())})
	}
	return out
}

// History returns the history named name.
func (p *Playground) History(name string) (History, error) {
	i, ok := p.byName[name]
	if !ok {
		return History{}, fmt.Errorf("no history named %q in the corpus", clip(name))
	}
	h := p.histories[i]
	h.Versions = slices.Clone(h.Versions)
	return h, nil
}

// check returns an error naming the first limit req is beyond.
func (req *Request) check() error {
	switch {
	case len(req.Constraint) > MaxConstraint:
		return fmt.Errorf("the constraint is %d bytes long, more than the %d the playground takes", len(req.Constraint), MaxConstraint)
	case len(req.Versions) > MaxVersionsText:
		return fmt.Errorf("the versions are %d bytes long, more than the %d the playground takes", len(req.Versions), MaxVersionsText)
	case len(req.HCL) > MaxHCL:
		return fmt.Errorf("the HCL policy text is %d bytes long, more than the %d the playground takes", len(req.HCL), MaxHCL)
	case len(req.Policies) > MaxPolicies:
		return fmt.Errorf("%d policies are chosen, more than the %d the playground takes", len(req.Policies), MaxPolicies)
	}
	return nil
}

// Evaluate answers a request: the verdict and reason of each chosen
// policy on each version, what each selects, the summary and the
// timeline. It fails only on a request beyond the limits.
func (p *Playground) Evaluate(req Request) (Answer, error) {
	if err := req.check(); err != nil {
		return Answer{}, err
	}
	versions := SplitVersions(req.Versions)
	if len(versions) > MaxVersions {
		return Answer{}, fmt.Errorf("%d versions are given, more than the %d the playground judges at once", len(versions), MaxVersions)
	}
	a := Answer{Constraint: req.Constraint, Versions: versions}
	if versions == nil {
		a.Versions = []string{}
	}
	if _, err := engine.ParseConstraint(req.Constraint); err != nil {
		a.ConstraintError = err.Error()
	}
	for _, v := range versions {
		if _, err := engine.ParseVersion(v); err != nil {
			a.Unreadable++
		}
	}
	hp := p.hcl(req.HCL)
	a.HCLErrors = hp.errors
	a.Available = append(p.catalogueInfo(), hp.info...)
	ps, infos, notes := p.choose(req.Policies, hp)
	a.Policies, a.Notes = infos, notes
	a.Check = report.NewCheckReport(ps, req.Constraint, a.Versions)
	a.Select = report.NewSelectReport(ps, req.Constraint, a.Versions)
	a.Groups = a.Check.Groups(rowgroups.Options{Today: todayOf(a.Policies), Order: Columns(a.Policies)})
	if a.Groups == nil {
		a.Groups = []rowgroups.Group{}
	}
	a.Summary = summary(a)
	if len(ps) > 0 && len(versions) > 0 {
		svg, err := timelineSVG(a.Check, a.Select)
		if err != nil {
			return Answer{}, err
		}
		a.Timeline = svg
	}
	return a, nil
}

// Explain answers one cell: the policy's reasoning on the version, as
// prerel explain --format json prints it.
func (p *Playground) Explain(req ExplainRequest) (report.ExplainReport, error) {
	if err := req.check(); err != nil {
		return report.ExplainReport{}, err
	}
	if len(req.Version) > MaxConstraint {
		return report.ExplainReport{}, fmt.Errorf("the version is %d bytes long, more than the %d the playground takes", len(req.Version), MaxConstraint)
	}
	hp := p.hcl(req.HCL)
	ps, _, _ := p.choose([]string{req.Policy}, hp)
	if len(ps) != 1 {
		return report.ExplainReport{}, fmt.Errorf("no policy named %q", clip(req.Policy))
	}
	return report.NewExplainReport(ps[0], req.Constraint, req.Version), nil
}

// Columns returns the indexes of policies in the order of the page's
// columns: by group, in the order of catalogue.Groups (a group it does
// not list last), each group's policies in the order given.
func Columns(policies []PolicyInfo) []int {
	rank := func(p PolicyInfo) int {
		if i := slices.Index(catalogue.Groups(), p.Group); i >= 0 {
			return i
		}
		return len(catalogue.Groups())
	}
	order := make([]int, len(policies))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(policies[a]) - rank(policies[b]) })
	return order
}

// todayOf reports whether a policy of policies is today's rule: one of
// catalogue.TodayPolicies from the catalogue, not from the HCL text.
func todayOf(policies []PolicyInfo) func(string) bool {
	today := map[string]bool{}
	for _, p := range policies {
		if p.Origin == OriginCatalogue && catalogue.Today(p.Name) != "" {
			today[p.Name] = true
		}
	}
	return func(name string) bool { return today[name] }
}

// choose returns the policies names asks for, in its order (every
// policy when it is empty), with their descriptions and a note for each
// name it does not know or repeats.
func (p *Playground) choose(names []string, hp *hclPolicies) ([]engine.Policy, []PolicyInfo, []string) {
	all := p.registry.All()
	infos := p.catalogueInfo()
	all = append(all, hp.policies...)
	infos = append(infos, hp.info...)
	if len(names) == 0 {
		return all, infos, nil
	}
	var ps []engine.Policy
	var chosen []PolicyInfo
	var notes []string
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		i := slices.IndexFunc(infos, func(pi PolicyInfo) bool { return pi.Name == n })
		if i < 0 {
			notes = append(notes, fmt.Sprintf("no policy named %q: left out", clip(n)))
			continue
		}
		ps = append(ps, all[i])
		chosen = append(chosen, infos[i])
	}
	if chosen == nil {
		chosen = []PolicyInfo{}
	}
	return ps, chosen, notes
}

// hclPolicies are the policies of an HCL text, or its problems.
type hclPolicies struct {
	text     string
	policies []engine.Policy
	info     []PolicyInfo
	errors   []string
}

// hcl loads the policies of text, reusing those of the last text.
func (p *Playground) hcl(text string) *hclPolicies {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cached != nil && p.cached.text == text {
		return p.cached
	}
	hp := &hclPolicies{text: text}
	if strings.TrimSpace(text) != "" {
		p.progress(ProgressLoading)
		ps, diags := p.loadHCL(text)
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				hp.errors = append(hp.errors, diag.Format(d))
			}
		}
		if len(hp.errors) == 0 {
			for _, q := range ps {
				hp.policies = append(hp.policies, watched{q, p.progress})
				hp.info = append(hp.info, PolicyInfo{Name: q.Name(), Rule: q.Rule(), Origin: OriginHCL, Group: catalogue.GroupOwn})
			}
		}
	}
	p.cached = hp
	return hp
}

// progress tells Progress what, when it is set.
func (p *Playground) progress(what string) {
	if p.Progress != nil {
		p.Progress(what)
	}
}

// watched is a policy of the HCL text that tells Progress its name
// before it judges, selects or explains.
type watched struct {
	*hclpolicy.Policy
	progress func(string)
}

func (w watched) Compile(constraint string) (engine.Matcher, error) {
	w.progress(w.Name())
	return w.Policy.Compile(constraint)
}

func (w watched) Select(constraint string, available []string) (engine.Selection, error) {
	w.progress(w.Name())
	return w.Policy.Select(constraint, available)
}

func (w watched) Explain(constraint, version string) engine.Explanation {
	w.progress(w.Name())
	return w.Policy.Explain(constraint, version)
}

// loadHCL reads policy blocks from text as hclpolicy.Load reads a policy
// file: only policy blocks, at least one, no name a registered policy
// has. A command block is refused: the page runs no command.
func (p *Playground) loadHCL(text string) ([]*hclpolicy.Policy, hcl.Diagnostics) {
	src := []byte(text)
	if !utf8.Valid(src) {
		return nil, hcl.Diagnostics{diag.ErrorAt(&hcl.Range{Filename: HCLFile}, "Invalid policy text", "The text is not valid UTF-8.")}
	}
	file, diags := hclread.ParseHCL(src, HCLFile)
	if file == nil || file.Body == nil || diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	content, more := file.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{hclpolicy.BlockHeader}})
	diags = append(diags, more...)
	if content != nil && len(content.Blocks) == 0 && !diags.HasErrors() {
		diags = append(diags, diag.ErrorAt(&hcl.Range{Filename: HCLFile, Start: hcl.InitialPos, End: hcl.InitialPos},
			"No policy in the policy text", `The text holds one or more blocks policy "NAME" { ... }.`))
	}
	if diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	ps, more := hclpolicy.Decode(file.Body, hclpolicy.Options{Sources: map[string][]byte{HCLFile: src}})
	diags = append(diags, more...)
	if !diags.HasErrors() {
		diags = append(diags, hclpolicy.CheckNames(ps, p.registry)...)
	}
	if diags.HasErrors() {
		return nil, diag.Dedupe(diags)
	}
	return ps, diags
}

// summary is the answer in one sentence, as prerel check's HTML page
// states it, with what the policies select.
func summary(a Answer) string {
	n := len(a.Check.Versions)
	switch {
	case len(a.Check.Policies) == 0:
		return "no policy is chosen"
	case n == 0:
		return "no versions are given"
	}
	disagree := 0
	for _, row := range a.Check.Versions {
		for _, r := range row.Results[1:] {
			if r.Verdict != row.Results[0].Verdict {
				disagree++
				break
			}
		}
	}
	var verdicts string
	switch {
	case len(a.Check.Policies) == 1:
		allowed := 0
		for _, row := range a.Check.Versions {
			if row.Results[0].Verdict == engine.Allow {
				allowed++
			}
		}
		verdicts = fmt.Sprintf("%s allows %d of %s", a.Check.Policies[0], allowed, plural.Of(n, "version", "versions"))
	case disagree == 0 && n == 1:
		verdicts = "the policies agree on the version"
	case disagree == 0 && n == 2:
		verdicts = "the policies agree on both versions"
	case disagree == 0:
		verdicts = fmt.Sprintf("the policies agree on all %d versions", n)
	default:
		verdicts = fmt.Sprintf("the policies disagree on %d of %s", disagree, plural.Of(n, "version", "versions"))
	}
	var distinct []string
	for _, r := range a.Select.Policies {
		s := "none"
		if r.Selected != nil {
			s = *r.Selected
		}
		if !slices.Contains(distinct, s) {
			distinct = append(distinct, s)
		}
	}
	switch {
	case len(distinct) == 1 && distinct[0] == "none":
		return verdicts + "; no policy selects a version"
	case len(a.Select.Policies) == 1:
		return verdicts + "; it selects " + distinct[0]
	case len(distinct) == 1:
		return verdicts + "; every policy selects " + distinct[0]
	}
	return fmt.Sprintf("%s; they select %s", verdicts, plural.Of(len(distinct), "different answer", "different answers"))
}

// svgNamespace makes the timeline a standalone SVG document, which the
// page parses as XML rather than as HTML.
const svgNamespace = `<svg xmlns="http://www.w3.org/2000/svg" `

// timelineSVG draws the verdicts of check, each policy's selection of
// sel outlined, in precedence order.
func timelineSVG(check report.CheckReport, sel report.SelectReport) (string, error) {
	selected := make([]string, len(sel.Policies))
	for j, p := range sel.Policies {
		if p.Selected != nil {
			selected[j] = *p.Selected
		}
	}
	svg, err := timeline.SVG(report.CheckTimeline(check, selected))
	if err != nil {
		return "", err
	}
	s := string(svg)
	if !strings.HasPrefix(s, "<svg ") {
		return "", errors.New("playground: the timeline is not an svg element")
	}
	return svgNamespace + strings.TrimPrefix(s, "<svg "), nil
}

// clip shortens text from a request for an error message.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	return strings.ToValidUTF8(s[:77], "") + "..."
}

// response is the JSON answer of Call.
type response struct {
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Call answers one call of the page: method with its JSON argument (see
// the package documentation), as JSON. It never panics: a panic is an
// error answer that says so, with the stack.
func (p *Playground) Call(method string, arg []byte) (out []byte) {
	defer func() {
		if v := recover(); v != nil {
			out = encode(response{Error: fmt.Sprintf("internal error in %s: %v\n%s", clip(method), v, debug.Stack())})
		}
	}()
	result, err := p.call(method, arg)
	if err != nil {
		return encode(response{Error: err.Error()})
	}
	return encode(response{Result: result})
}

func (p *Playground) call(method string, arg []byte) (any, error) {
	if len(arg) > MaxArgument {
		return nil, fmt.Errorf("%s: the argument is %d bytes long, more than %d", clip(method), len(arg), MaxArgument)
	}
	decode := func(v any) error {
		if len(arg) == 0 {
			return nil
		}
		if err := json.Unmarshal(arg, v); err != nil {
			return fmt.Errorf("%s: the argument is not the JSON expected: %v", method, err)
		}
		return nil
	}
	switch method {
	case "info":
		return p.Info(), nil
	case "history":
		var req struct {
			Name string `json:"name"`
		}
		if err := decode(&req); err != nil {
			return nil, err
		}
		return p.History(req.Name)
	case "evaluate":
		var req Request
		if err := decode(&req); err != nil {
			return nil, err
		}
		return p.Evaluate(req)
	case "explain":
		var req ExplainRequest
		if err := decode(&req); err != nil {
			return nil, err
		}
		return p.Explain(req)
	}
	return nil, fmt.Errorf("unknown method %q (expected info, history, evaluate or explain)", clip(method))
}

// encode writes v as JSON, "<", ">" and "&" as they are, as prerel's
// JSON is written.
func encode(v response) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b.Reset()
		enc.Encode(response{Error: "cannot encode the answer: " + err.Error()})
	}
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}
