package credentials

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	hcl1 "github.com/hashicorp/hcl"
	hcl1ast "github.com/hashicorp/hcl/hcl/ast"
	hcl1parser "github.com/hashicorp/hcl/hcl/parser"
	hcl1scanner "github.com/hashicorp/hcl/hcl/scanner"
	hcl1token "github.com/hashicorp/hcl/hcl/token"
	jsonscanner "github.com/hashicorp/hcl/json/scanner"
	jsontoken "github.com/hashicorp/hcl/json/token"
	"github.com/hashicorp/hcl/v2"
	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/prerel/prerel/internal/diag"
)

// FileLimit caps the size of one CLI configuration file. Such files hold
// a few blocks; the cap keeps the time HCL 1 takes to parse a hostile
// file under a second.
const FileLimit = 256 << 10

// MaxDepth is the deepest nesting of a CLI configuration file that is
// parsed: braces, brackets and the labels of one block together. A file
// nested deeper is refused before it is parsed.
const MaxDepth = 64

// cliConfig is what a CLI configuration file is decoded into, with the
// same names and types as Terraform's, so that a file Terraform cannot
// decode is refused here too. Only credentials, credentials_helper and
// host blocks are used; provider_installation blocks are read from the
// syntax tree, as Terraform reads them.
type cliConfig struct {
	Providers                             map[string]string
	Provisioners                          map[string]string
	DisableCheckpoint                     bool                              `hcl:"disable_checkpoint"`
	DisableCheckpointSignature            bool                              `hcl:"disable_checkpoint_signature"`
	PluginCacheDir                        string                            `hcl:"plugin_cache_dir"`
	PluginCacheMayBreakDependencyLockFile bool                              `hcl:"plugin_cache_may_break_dependency_lock_file"`
	Hosts                                 map[string]*cliHost               `hcl:"host"`
	Credentials                           map[string]map[string]interface{} `hcl:"credentials"`
	CredentialsHelpers                    map[string]*cliHelper             `hcl:"credentials_helper"`
}

// cliHost is a host block.
type cliHost struct {
	Services map[string]interface{} `hcl:"services"`
}

type cliHelper struct {
	Args []string `hcl:"args"`
}

// fileCredentials is what one CLI configuration file says about
// credentials.
type fileCredentials struct {
	// jsonSyntax is true for a file in JSON syntax.
	jsonSyntax bool
	// hosts maps each host with a credentials block to its token; a
	// block without a token (or whose token is not a string) maps to an
	// entry with ok false.
	hosts map[svchost.Hostname]fileToken
	// helpers names the credentials_helper blocks, sorted.
	helpers []string
	// settings are the file's host and provider_installation blocks.
	settings fileSettings
}

type fileToken struct {
	token secret
	ok    bool
}

// parseConfig parses src, the content of the CLI configuration file at
// path, as Terraform does: in JSON syntax when its first character other
// than white space is "{", in HCL (version 1) syntax otherwise. A file
// with an error yields no credentials. Diagnostics never quote the file's
// text beyond the host names of credentials blocks.
func parseConfig(path string, src []byte) (fc fileCredentials, diags hcl.Diagnostics) {
	return parseConfigEnv(path, src, func(string) (string, bool) { return "", false })
}

// parseConfigEnv is parseConfig with the environment the paths of
// dev_overrides expand from.
func parseConfigEnv(path string, src []byte, lookup func(string) (string, bool)) (fc fileCredentials, diags hcl.Diagnostics) {
	fc.jsonSyntax = isJSON(src)
	// HCL 1's scanner and decoder panic on some malformed files.
	defer func() {
		if r := recover(); r != nil {
			fc = fileCredentials{jsonSyntax: fc.jsonSyntax}
			diags = hcl.Diagnostics{diag.ErrorAt(fileRange(path, 0, 0), "Invalid CLI configuration", "the file cannot be parsed")}
		}
	}()
	if d := checkDepth(path, src, fc.jsonSyntax); d != nil {
		return fc, hcl.Diagnostics{d}
	}
	var cfg cliConfig
	obj, err := hcl1.ParseBytes(src)
	if err == nil {
		err = hcl1.DecodeObject(&cfg, obj)
	}
	if err != nil {
		return fc, hcl.Diagnostics{parseDiagnostic(path, src, fc.jsonSyntax, err)}
	}
	var list *hcl1ast.ObjectList
	if obj != nil {
		list, _ = obj.Node.(*hcl1ast.ObjectList)
	}
	fc.hosts = map[svchost.Hostname]fileToken{}
	given := make([]string, 0, len(cfg.Credentials))
	for h := range cfg.Credentials {
		given = append(given, h)
	}
	// Two spellings of one host in one file: the later in sort order wins.
	sort.Strings(given)
	for _, h := range given {
		host, err := svchost.ForComparison(h)
		if err != nil {
			diags = append(diags, diag.ErrorAt(hostRange(path, list, h),
				invalidBlock,
				fmt.Sprintf("the credentials %s block has an invalid host name: %s", strconv.Quote(h), err)))
			continue
		}
		t, isString := cfg.Credentials[h]["token"].(string)
		fc.hosts[host] = fileToken{token: secret(t), ok: isString && t != ""}
	}
	for name := range cfg.CredentialsHelpers {
		fc.helpers = append(fc.helpers, name)
	}
	sort.Strings(fc.helpers)
	var hdiags, idiags hcl.Diagnostics
	fc.settings.hosts, hdiags = decodeHosts(path, list, cfg.Hosts)
	fc.settings.installs, idiags = decodeInstallations(path, list, lookup)
	fc.settings.diags = append(hdiags, idiags...)
	return fc, diags
}

// invalidBlock is the summary of the diagnostic for a credentials block
// whose host name is invalid.
const invalidBlock = "Invalid credentials block"

// isJSON reports whether src is in JSON syntax, by the rule of HCL 1:
// its first character other than white space is "{".
func isJSON(src []byte) bool {
	for len(src) > 0 {
		r, w := utf8.DecodeRune(src)
		if !unicode.IsSpace(r) {
			return r == '{'
		}
		src = src[w:]
	}
	return false
}

// checkDepth refuses src when it is nested deeper than MaxDepth, counting
// the tokens of HCL 1's own scanner so that strings and comments are told
// apart from structure exactly as the parser does. A run of block labels
// counts as nesting, as the decoder nests one level per label.
func checkDepth(path string, src []byte, jsonSyntax bool) *hcl.Diagnostic {
	depth, labels := 0, 0
	tooDeep := func(line, col int) *hcl.Diagnostic {
		return diag.ErrorAt(fileRange(path, line, col), "Invalid CLI configuration",
			fmt.Sprintf("nested deeper than %d levels", MaxDepth))
	}
	if jsonSyntax {
		sc := jsonscanner.New(src)
		sc.Error = func(jsontoken.Pos, string) {}
		for {
			tok := sc.Scan()
			switch tok.Type {
			case jsontoken.EOF:
				return nil
			case jsontoken.LBRACE, jsontoken.LBRACK:
				if depth++; depth > MaxDepth {
					return tooDeep(tok.Pos.Line, tok.Pos.Column)
				}
			case jsontoken.RBRACE, jsontoken.RBRACK:
				depth--
			}
		}
	}
	sc := hcl1scanner.New(src)
	sc.Error = func(hcl1token.Pos, string) {}
	for {
		tok := sc.Scan()
		switch tok.Type {
		case hcl1token.EOF:
			return nil
		case hcl1token.IDENT, hcl1token.STRING:
			labels++
		case hcl1token.LBRACE, hcl1token.LBRACK:
			depth++
			labels = 0
		case hcl1token.RBRACE, hcl1token.RBRACK:
			depth--
			labels = 0
		case hcl1token.COMMENT:
		default:
			labels = 0
		}
		if depth+labels > MaxDepth {
			return tooDeep(tok.Pos.Line, tok.Pos.Column)
		}
	}
}

// parseDiagnostic turns an error of HCL 1's parser or decoder into a
// diagnostic at the place it names.
func parseDiagnostic(path string, src []byte, jsonSyntax bool, err error) *hcl.Diagnostic {
	line, col := 0, 0
	msg := err.Error()
	var pe *hcl1parser.PosError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
		if pe.Pos.IsValid() {
			line, col = pe.Pos.Line, pe.Pos.Column
		}
	} else if m := leadingPos.FindStringSubmatch(msg); m != nil {
		// The JSON scanner's errors start with "LINE:COLUMN: ", or with
		// "-: " for no place.
		line, _ = strconv.Atoi(m[1])
		col, _ = strconv.Atoi(m[2])
		msg = msg[len(m[0]):]
	}
	if line == 0 && jsonSyntax {
		line, col = jsonErrorPos(src)
	}
	summary := "Invalid CLI configuration"
	if jsonSyntax {
		summary = "Invalid CLI configuration in JSON"
	}
	return diag.ErrorAt(fileRange(path, line, col), summary, cleanMessage(msg))
}

var leadingPos = regexp.MustCompile(`^(?:At )?(?:(\d+):(\d+)|-): `)

// Rewrites of HCL 1's messages that would quote the file's text.
var quoting = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(?s)key '.*' expected start of object`), "key expected start of object"},
	{regexp.MustCompile(`(?s)[Gg]ot unknown token: .*`), "got an unexpected token"},
	{regexp.MustCompile(`(?s)Unknown token: .*`), "unexpected token"},
	{regexp.MustCompile(`(?s)illegal char: .*`), "illegal char"},
	{regexp.MustCompile(`strconv\.Parse\w+: parsing "(?:[^"\\]|\\.)*": `), "number "},
}

// cleanMessage returns an HCL 1 error message without any text quoted
// from the file: a key, a token or a character.
func cleanMessage(msg string) string {
	for _, q := range quoting {
		msg = q.re.ReplaceAllString(msg, q.with)
	}
	return msg
}

// jsonSyntaxErrorOffset returns the offset of the first syntax error in
// src by the rules of encoding/json; ok is false when it finds none.
func jsonSyntaxErrorOffset(src []byte) (off int, ok bool) {
	var raw json.RawMessage
	var se *json.SyntaxError
	if err := json.Unmarshal(src, &raw); errors.As(err, &se) {
		return int(se.Offset), true
	}
	return 0, false
}

// jsonErrorPos returns where HCL 1's JSON parser most likely stopped, for
// its errors that carry no position: the place of the first syntax error
// by the rules of encoding/json, or 0, 0.
func jsonErrorPos(src []byte) (line, col int) {
	off, ok := jsonSyntaxErrorOffset(src)
	if !ok {
		return 0, 0
	}
	return lineCol(src, off)
}

// lineCol returns the line and column (in characters, from 1) of the byte
// at offset off in src.
func lineCol(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	before := src[:off]
	line = 1 + strings.Count(string(before), "\n")
	if i := strings.LastIndexByte(string(before), '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, 1 + utf8.RuneCount(before)
}

// hostRange returns the place of the credentials block for the host
// spelled given, or the file alone when it cannot be found.
func hostRange(path string, list *hcl1ast.ObjectList, given string) *hcl.Range {
	return blockRange(path, list, "credentials", given)
}

// blockRange returns the place of the block of kind (such as "host") for
// the host spelled given, or the file alone when it cannot be found. An
// empty kind finds the item whose key is given, such as an entry of
// dev_overrides.
func blockRange(path string, list *hcl1ast.ObjectList, kind, given string) *hcl.Range {
	if list != nil && kind == "" {
		for _, item := range list.Items {
			if len(item.Keys) > 0 && keyText(item.Keys[0]) == given {
				p := item.Keys[0].Pos()
				return fileRange(path, p.Line, p.Column)
			}
		}
		return fileRange(path, 0, 0)
	}
	if list != nil {
		for _, item := range list.Filter(kind).Items {
			if len(item.Keys) > 0 && keyText(item.Keys[0]) == given {
				p := item.Keys[0].Pos()
				return fileRange(path, p.Line, p.Column)
			}
			if obj, ok := item.Val.(*hcl1ast.ObjectType); ok && obj.List != nil {
				for _, inner := range obj.List.Items {
					if len(inner.Keys) > 0 && keyText(inner.Keys[0]) == given {
						p := inner.Keys[0].Pos()
						return fileRange(path, p.Line, p.Column)
					}
				}
			}
		}
	}
	return fileRange(path, 0, 0)
}

// keyText returns the text of a key as the decoder reads it.
func keyText(k *hcl1ast.ObjectKey) (text string) {
	if k == nil {
		return ""
	}
	defer func() {
		if recover() != nil {
			text = ""
		}
	}()
	s, _ := k.Token.Value().(string)
	return s
}

// fileRange returns a place in the file at path; line or col 0 means
// unknown.
func fileRange(path string, line, col int) *hcl.Range {
	if line <= 0 {
		line, col = 0, 0
	}
	if col < 0 {
		col = 0
	}
	return &hcl.Range{Filename: path, Start: hcl.Pos{Line: line, Column: col}, End: hcl.Pos{Line: line, Column: col}}
}
