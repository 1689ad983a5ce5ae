// Package sarif writes SARIF 2.1.0 logs, the format GitHub code
// scanning, GitLab and most CI dashboards read: one run of prerel, its
// rules with their help, and its results, each located at a file, line
// and column, with the related places that explain it.
//
// The package knows nothing of prerel's reports: each report's package
// turns its findings into Rules and Results (resolve, pin,
// compare/render), and a command puts those of one run into a Log and
// writes it with Write.
//
// Paths are written as URIs relative to the directory prerel ran in, the
// %SRCROOT% base (a CI job runs it at the repository's root), each
// segment percent-encoded; a path outside that directory, or absolute,
// becomes a file URI. Every text is JSON, so that no path, message or
// help can break the log; a message is cut to MaxMessage bytes.
package sarif

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// SchemaURI is the JSON schema of SARIF 2.1.0, as the log's $schema
// names it.
const SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// Version is the SARIF version written.
const Version = "2.1.0"

// SrcRoot is the uriBaseId of every relative URI: the directory prerel
// ran in.
const SrcRoot = "%SRCROOT%"

// InformationURI is prerel's home, which the log names as the tool's.
const InformationURI = "https://github.com/prerel/prerel"

// DocsURI is the start of the helpUri of every rule: a page of prerel's
// guides follows it, as in DocsURI + "ci.md#sarif".
const DocsURI = InformationURI + "/blob/main/docs/"

// MaxMessage is the longest message written, in bytes: a longer one is
// cut at a character boundary and ends with "…".
const MaxMessage = 4000

// Level is how serious a result is.
type Level string

// The levels SARIF has.
const (
	Error   Level = "error"
	Warning Level = "warning"
	Note    Level = "note"
)

// Rule is a kind of result: a check prerel makes.
type Rule struct {
	// ID names the rule, in kebab case: "stale-pin".
	ID string
	// Short is the rule in one sentence.
	Short string
	// Help says, in Markdown, what the rule finds, why it matters and
	// what to do.
	Help string
	// HelpURI is the page of prerel's guides that explains it.
	HelpURI string
	// Level is the level of its results, unless a result says another.
	Level Level
}

// Location is a place in a file.
type Location struct {
	// File is the path: relative to the directory prerel ran in, or
	// absolute. "" means no place (the result is then at no location).
	File string
	// Line and Column are where the place starts, from 1; 0 when
	// unknown (Column alone, or both).
	Line, Column int
	// Message says, for a related location, what stands there: "the
	// constraint of module.eks".
	Message string
}

// At is the location where r starts: its file, line and column.
func At(r hcl.Range) Location {
	return Location{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column}
}

// Result is one finding.
type Result struct {
	// Rule is the ID of one of the log's Rules.
	Rule string
	// Level is "" for the rule's level.
	Level Level
	// Message says what was found, in one or a few sentences.
	Message string
	// Location is where the finding stands: a constraint, a pin, a
	// baseline entry.
	Location Location
	// Related are the other places involved: the constraints of other
	// modules, the pin's constraint.
	Related []Location
}

// Log is one run of prerel: the rules it checks and what it found.
type Log struct {
	// ToolVersion is prerel's version; "" means the one it was built as,
	// or "(devel)".
	ToolVersion string
	Rules       []Rule
	Results     []Result
}

// AddRules adds the rules whose ID the log has no rule by yet, in order.
func (l *Log) AddRules(rules ...Rule) {
	for _, r := range rules {
		if l.rule(r.ID) < 0 {
			l.Rules = append(l.Rules, r)
		}
	}
}

// rule returns the index of the rule id, -1 for none.
func (l *Log) rule(id string) int {
	for i, r := range l.Rules {
		if r.ID == id {
			return i
		}
	}
	return -1
}

// The JSON form of a log, as the schema names its parts.
type (
	jsonLog struct {
		Schema  string    `json:"$schema"`
		Version string    `json:"version"`
		Runs    []jsonRun `json:"runs"`
	}
	jsonRun struct {
		Tool       jsonTool     `json:"tool"`
		ColumnKind string       `json:"columnKind"`
		Results    []jsonResult `json:"results"`
	}
	jsonTool struct {
		Driver jsonDriver `json:"driver"`
	}
	jsonDriver struct {
		Name           string     `json:"name"`
		InformationURI string     `json:"informationUri"`
		Rules          []jsonRule `json:"rules"`
		Version        string     `json:"version"`
	}
	jsonRule struct {
		ID                   string      `json:"id"`
		ShortDescription     jsonText    `json:"shortDescription"`
		Help                 jsonText    `json:"help"`
		HelpURI              string      `json:"helpUri,omitempty"`
		DefaultConfiguration *jsonConfig `json:"defaultConfiguration,omitempty"`
	}
	jsonConfig struct {
		Level Level `json:"level"`
	}
	jsonText struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	jsonResult struct {
		RuleID           string         `json:"ruleId"`
		RuleIndex        int            `json:"ruleIndex"`
		Level            Level          `json:"level"`
		Message          jsonText       `json:"message"`
		Locations        []jsonLocation `json:"locations"`
		RelatedLocations []jsonLocation `json:"relatedLocations,omitempty"`
	}
	jsonLocation struct {
		ID               *int                  `json:"id,omitempty"`
		PhysicalLocation *jsonPhysicalLocation `json:"physicalLocation,omitempty"`
		Message          *jsonText             `json:"message,omitempty"`
	}
	jsonPhysicalLocation struct {
		ArtifactLocation jsonArtifactLocation `json:"artifactLocation"`
		Region           *jsonRegion          `json:"region,omitempty"`
	}
	jsonArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	jsonRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
)

// Write writes the log as SARIF 2.1.0 JSON, indented. It fails, writing
// nothing, when a result names a rule the log does not have, or a level
// is not one of SARIF's.
func Write(w io.Writer, l Log) error {
	doc, err := l.json()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func (l Log) json() (*jsonLog, error) {
	version := l.ToolVersion
	if version == "" {
		version = buildVersion()
	}
	d := jsonDriver{Name: "prerel", InformationURI: InformationURI, Rules: []jsonRule{}, Version: version}
	for _, r := range l.Rules {
		if r.ID == "" {
			return nil, fmt.Errorf("sarif: a rule has no ID")
		}
		if err := checkLevel(r.Level); err != nil {
			return nil, fmt.Errorf("sarif: rule %s: %w", r.ID, err)
		}
		jr := jsonRule{ID: r.ID, ShortDescription: jsonText{Text: r.Short}, Help: jsonText{Text: r.Help, Markdown: r.Help}, HelpURI: r.HelpURI}
		if r.Level != "" {
			jr.DefaultConfiguration = &jsonConfig{Level: r.Level}
		}
		d.Rules = append(d.Rules, jr)
	}
	run := jsonRun{Tool: jsonTool{Driver: d}, ColumnKind: "unicodeCodePoints", Results: []jsonResult{}}
	for _, res := range l.Results {
		i := l.rule(res.Rule)
		if i < 0 {
			return nil, fmt.Errorf("sarif: a result names the rule %q, which the log does not have", res.Rule)
		}
		level := res.Level
		if level == "" {
			level = l.Rules[i].Level
		}
		if level == "" {
			level = Warning
		}
		if err := checkLevel(level); err != nil {
			return nil, fmt.Errorf("sarif: a result of %s: %w", res.Rule, err)
		}
		jr := jsonResult{RuleID: res.Rule, RuleIndex: i, Level: level, Message: jsonText{Text: clip(res.Message)}, Locations: []jsonLocation{}}
		if p := physical(res.Location); p != nil {
			jr.Locations = append(jr.Locations, jsonLocation{PhysicalLocation: p})
		}
		for _, rel := range res.Related {
			p := physical(rel)
			if p == nil || rel == res.Location {
				continue
			}
			id := len(jr.RelatedLocations) + 1
			loc := jsonLocation{ID: &id, PhysicalLocation: p}
			if rel.Message != "" {
				loc.Message = &jsonText{Text: clip(rel.Message)}
			}
			jr.RelatedLocations = append(jr.RelatedLocations, loc)
		}
		run.Results = append(run.Results, jr)
	}
	return &jsonLog{Schema: SchemaURI, Version: Version, Runs: []jsonRun{run}}, nil
}

func checkLevel(l Level) error {
	switch l {
	case "", Error, Warning, Note:
		return nil
	}
	return fmt.Errorf("level %q is not error, warning or note", string(l))
}

// physical is the physical location of l; nil for no file.
func physical(l Location) *jsonPhysicalLocation {
	if l.File == "" {
		return nil
	}
	p := &jsonPhysicalLocation{ArtifactLocation: artifact(l.File)}
	if l.Line > 0 {
		p.Region = &jsonRegion{StartLine: l.Line}
		if l.Column > 0 {
			p.Region.StartColumn = l.Column
		}
	}
	return p
}

// artifact is the artifact location of path: a URI relative to SrcRoot,
// or a file URI for a path outside it.
func artifact(path string) jsonArtifactLocation {
	clean := filepath.ToSlash(filepath.Clean(path))
	if filepath.IsAbs(path) || clean == ".." || strings.HasPrefix(clean, "../") {
		abs, err := filepath.Abs(path)
		if err != nil {
			abs = path
		}
		return jsonArtifactLocation{URI: "file://" + escapePath(filepath.ToSlash(abs))}
	}
	return jsonArtifactLocation{URI: escapePath(clean), URIBaseID: SrcRoot}
}

// escapePath percent-encodes every byte of p that is not unreserved in a
// URI path, nor "/": a colon too, which would read as a scheme in a
// relative reference.
func escapePath(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// clip cuts s to MaxMessage bytes at a character boundary; a message
// SARIF requires is never empty.
func clip(s string) string {
	if s == "" {
		return "(no message)"
	}
	if len(s) <= MaxMessage {
		return s
	}
	cut := MaxMessage - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// buildVersion is the version of the main module prerel was built as,
// "(devel)" when it is not known.
func buildVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
