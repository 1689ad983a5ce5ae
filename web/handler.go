package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/registry"
)

// Limits of the API.
const (
	// MaxAddress is the longest address /api/versions reads, in bytes.
	MaxAddress = 512
	// MaxLookups is how many lookups run at once; more wait their turn.
	MaxLookups = 4
	// DefaultMaxQueue is how many lookups may wait for a turn at once;
	// one more is answered 503 at once.
	DefaultMaxQueue = 16
	// DefaultQueueWait is how long a lookup waits for its turn before
	// it is answered 503.
	DefaultQueueWait = 20 * time.Second
	// RetryAfter is the Retry-After, in seconds, of a lookup refused
	// because the queue is full or its wait ran out.
	RetryAfter = 5
)

// TokenHeader is the request header that carries the API token.
const TokenHeader = "X-Prerel-Token"

// tokenMeta is the element of index.html that carries the API token;
// Handler fills its content in the page it serves.
const tokenMeta = `<meta name="prerel-api-token" content="">`

// ContentSecurityPolicy is sent with every answer of Handler; index.html
// carries the same policy (but frame-ancestors, which a meta element
// cannot set).
const ContentSecurityPolicy = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// contentTypes are the types of the site's files, by extension.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".wasm": "application/wasm",
}

// Versions returns the source of one lookup's versions. A registry
// Client bounds all its lookups by one deadline, counted from its first
// request, so a server makes a Client for each lookup.
type Versions func() (registry.Source, error)

// Options says what Handler answers. The zero Options serves the site
// alone, to loopback host names.
type Options struct {
	// Versions gives the source of each lookup; nil for none (a static
	// site: /api/versions answers 503).
	Versions Versions
	// AllowRegistry reports whether a lookup may go to the registry host
	// of an address (lower case, with a port if any); nil allows every
	// host.
	AllowRegistry func(host string) bool
	// AllowHost reports whether a request's Host header names this
	// server; a request with another Host is refused (a page whose name
	// was rebound to this address). nil allows a loopback name
	// (localhost, 127.0.0.1, [::1]) with any port.
	AllowHost func(host string) bool
	// Token is the API token, which every /api/versions request must
	// carry in TokenHeader and which Handler puts in the page it serves;
	// "" means a random one (NewToken).
	Token string
	// MaxQueue is how many lookups may wait for a turn; 0 means
	// DefaultMaxQueue.
	MaxQueue int
	// QueueWait bounds a lookup's wait for its turn; 0 means
	// DefaultQueueWait.
	QueueWait time.Duration
	// Log receives the detail of each failed lookup, one line each,
	// which the answer leaves out; nil discards it.
	Log io.Writer
	// Precompress starts compressing prerel.wasm when Handler is made,
	// rather than on its first request.
	Precompress bool
	// CallTimeout, when positive, replaces the page's own time limit
	// (15 s) on an evaluation or an explanation, past which the page
	// stops its worker and names the HCL policy that ran: Handler writes
	// it, in milliseconds, into the page it serves (meta element
	// prerel-call-timeout-ms). prerel serve leaves it 0; a test sets it
	// so as not to wait 15 s.
	CallTimeout time.Duration
}

// NewToken returns a random API token: 32 hexadecimal digits.
func NewToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// Handler serves the site in site (see CheckSite) and the API of the
// package documentation, as opt says. Only GET and HEAD are answered.
func Handler(site fs.FS, opt Options) http.Handler {
	return newHandler(site, opt)
}

func newHandler(site fs.FS, opt Options) *handler {
	h := &handler{site: site, opt: opt, lookups: make(chan struct{}, MaxLookups)}
	if h.opt.Token == "" {
		h.opt.Token = NewToken()
	}
	if h.opt.AllowHost == nil {
		h.opt.AllowHost = LoopbackHost
	}
	if h.opt.MaxQueue <= 0 {
		h.opt.MaxQueue = DefaultMaxQueue
	}
	if h.opt.QueueWait <= 0 {
		h.opt.QueueWait = DefaultQueueWait
	}
	if h.opt.Log == nil {
		h.opt.Log = io.Discard
	}
	h.waiting = make(chan struct{}, h.opt.MaxQueue)
	if opt.Precompress {
		go func() {
			if f, err := site.Open(WasmFile); err == nil {
				if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
					h.gzipped(WasmFile, f, fi)
				}
				f.Close()
			}
		}()
	}
	return h
}

type handler struct {
	site    fs.FS
	opt     Options
	lookups chan struct{} // a token for each lookup under way
	waiting chan struct{} // a token for each lookup waiting for its turn
	queued  func()        // called (by tests) when a lookup starts waiting

	mu     sync.Mutex
	zipped map[string]*zippedFile
	logMu  sync.Mutex
}

// LoopbackHost reports whether a Host header names a loopback address:
// localhost, 127.0.0.1 or [::1], with or without a port.
func LoopbackHost(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	return strings.EqualFold(name, "localhost") || name == "127.0.0.1" || name == "::1"
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", ContentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	hd.Set("Cross-Origin-Resource-Policy", "same-origin")
	if !h.opt.AllowHost(r.Host) {
		// The page was asked for by a name that is not this server's:
		// a name rebound to this address, or a mistake.
		http.Error(w, fmt.Sprintf("this server does not answer for host %q: open it by the address prerel serve printed", printable.String(clip(r.Host, 100))), http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s is not allowed: only GET and HEAD", printable.String(clip(r.Method, 20))))
		return
	}
	p := r.URL.Path
	if strings.HasPrefix(p, "/api/") {
		if why := crossSite(r); why != "" {
			writeError(w, http.StatusForbidden, "the API answers the page of this server only: "+why)
			return
		}
	}
	switch {
	case p == "/api/status":
		writeJSON(w, http.StatusOK, map[string]bool{"versions": h.opt.Versions != nil})
	case p == "/api/versions":
		h.lookup(w, r)
	case strings.HasPrefix(p, "/api/"):
		writeError(w, http.StatusNotFound, fmt.Sprintf("no such API: %s (there are /api/status and /api/versions)", printable.String(clip(p, 100))))
	default:
		h.file(w, r)
	}
}

// ServeHTTP serves one request.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serve(w, r) }

// crossSite says why r comes from a page of another site or origin, ""
// when it does not: its Sec-Fetch-Site is neither same-origin nor none,
// or its Origin is not the origin of the Host it asks.
func crossSite(r *http.Request) string {
	switch s := r.Header.Get("Sec-Fetch-Site"); s {
	case "", "same-origin", "none":
	default:
		return fmt.Sprintf("the request comes from another site (Sec-Fetch-Site: %s)", printable.String(clip(s, 40)))
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return ""
	}
	u, err := url.Parse(o)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || !strings.EqualFold(u.Host, r.Host) {
		return fmt.Sprintf("the request comes from another origin (Origin: %s)", printable.String(clip(o, 100)))
	}
	return ""
}

// file serves one file of the site: "/" is index.html; any name but
// those of SiteFiles is not found. index.html carries the API token;
// the other files go gzip-compressed to a client that accepts it.
func (h *handler) file(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = IndexFile
	}
	if !slices.Contains(SiteFiles, name) {
		http.NotFound(w, r)
		return
	}
	f, err := h.site.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			http.Error(w, fmt.Sprintf("%s is not built: build the site with web/build.sh", name), http.StatusNotFound)
			return
		}
		http.Error(w, fmt.Sprintf("%s cannot be read: %v", name, err), http.StatusInternalServerError)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.Error(w, fmt.Sprintf("%s is not a regular file", name), http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", contentTypes[path.Ext(name)])
	if name == IndexFile {
		// The page holds this run's token: never kept, never revalidated
		// against a page of an earlier run.
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, fmt.Sprintf("%s cannot be read: %v", name, err), http.StatusInternalServerError)
			return
		}
		meta := strings.Replace(tokenMeta, `content=""`, `content="`+h.opt.Token+`"`, 1)
		if ms := h.opt.CallTimeout.Milliseconds(); ms > 0 {
			meta += fmt.Sprintf("\n<meta name=\"prerel-call-timeout-ms\" content=\"%d\">", ms)
		}
		data = bytes.Replace(data, []byte(tokenMeta), []byte(meta), 1)
		hd.Set("Cache-Control", "no-store")
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
		return
	}
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Vary", "Accept-Encoding")
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		z, err := h.gzipped(name, f, fi)
		if err != nil {
			http.Error(w, fmt.Sprintf("%s cannot be read: %v", name, err), http.StatusInternalServerError)
			return
		}
		hd.Set("Content-Encoding", "gzip")
		http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(z.data))
		return
	}
	content, ok := f.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, fmt.Sprintf("%s cannot be read: %v", name, err), http.StatusInternalServerError)
			return
		}
		content = bytes.NewReader(data)
	}
	http.ServeContent(w, r, name, fi.ModTime(), content)
}

// zippedFile is a site file compressed, and the version of the file it
// was compressed from.
type zippedFile struct {
	mod  time.Time
	size int64
	data []byte
}

// gzipped returns the file name, open as f, gzip-compressed: compressed
// once, and again only when the file changes (its size or time).
func (h *handler) gzipped(name string, f fs.File, fi fs.FileInfo) (*zippedFile, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if z := h.zipped[name]; z != nil && z.mod.Equal(fi.ModTime()) && z.size == fi.Size() {
		return z, nil
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b) // BestCompression saves 1% for twice the time
	if _, err := io.Copy(zw, f); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if h.zipped == nil {
		h.zipped = map[string]*zippedFile{}
	}
	z := &zippedFile{mod: fi.ModTime(), size: fi.Size(), data: b.Bytes()}
	h.zipped[name] = z
	return z, nil
}

// acceptsGzip reports whether an Accept-Encoding header accepts gzip:
// it names gzip or *, without q=0.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		return q > 0
	}
	return false
}

// versionsAnswer is the answer of /api/versions.
type versionsAnswer struct {
	Address   string   `json:"address"`
	Kind      string   `json:"kind"`
	Canonical string   `json:"canonical"`
	Versions  []string `json:"versions"`
	From      string   `json:"from"`
	Warnings  []string `json:"warnings"`
}

// lookup answers /api/versions.
func (h *handler) lookup(w http.ResponseWriter, r *http.Request) {
	if h.opt.Versions == nil {
		writeError(w, http.StatusServiceUnavailable, "this server looks no versions up: run prerel serve to look a module's or provider's versions up in its registry")
		return
	}
	if got := r.Header.Get(TokenHeader); subtle.ConstantTimeCompare([]byte(got), []byte(h.opt.Token)) != 1 {
		writeError(w, http.StatusForbidden, "the request lacks this server's API token, which its page carries: reload the page")
		return
	}
	q, status, err := ParseQuery(r.URL.Query())
	if err != nil {
		writeError(w, status, err.Error())
		return
	}
	if h.opt.AllowRegistry != nil && !h.opt.AllowRegistry(q.Host) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("this server looks no versions up on %s: prerel serve --allow-registry %s allows that registry", printable.String(q.Host), printable.String(q.Host)))
		return
	}
	if !h.wait(w, r) {
		return
	}
	defer func() { <-h.lookups }()
	src, err := h.opt.Versions()
	if err != nil {
		h.logf("%s %s: %v", q.Kind, q.Canonical, err)
		writeError(w, http.StatusServiceUnavailable, "no lookup can be made: see the server's log")
		return
	}
	ans := versionsAnswer{Address: q.Address, Kind: q.Kind, Canonical: q.Canonical, Warnings: []string{}}
	var l *registry.Listing
	if q.Kind == "module" {
		l, err = src.ModuleVersions(r.Context(), q.module)
	} else {
		l, err = src.ProviderVersions(r.Context(), q.provider)
	}
	if err != nil {
		status := lookupStatus(r.Context(), err)
		h.logf("%s %s: %v", q.Kind, q.Canonical, err)
		writeError(w, status, lookupMessage(q, status))
		return
	}
	ans.Versions, ans.From = l.Versions, l.From
	if ans.Versions == nil {
		ans.Versions = []string{}
	}
	if l.Warnings != nil {
		ans.Warnings = l.Warnings
	}
	writeJSON(w, http.StatusOK, ans)
}

// wait takes a turn among the lookups under way, waiting for one in a
// bounded queue for a bounded time; when it cannot, it answers 503 with
// a Retry-After and returns false.
func (h *handler) wait(w http.ResponseWriter, r *http.Request) bool {
	select {
	case h.lookups <- struct{}{}:
		return true
	default:
	}
	select {
	case h.waiting <- struct{}{}:
		defer func() { <-h.waiting }()
	default:
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d lookups are under way and %d wait: try again in a few seconds", MaxLookups, h.opt.MaxQueue))
		return false
	}
	if h.queued != nil {
		h.queued()
	}
	t := time.NewTimer(h.opt.QueueWait)
	defer t.Stop()
	select {
	case h.lookups <- struct{}{}:
		return true
	case <-t.C:
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("no lookup could start within %s: the server is busy, try again in a few seconds", h.opt.QueueWait))
	case <-r.Context().Done():
		writeError(w, http.StatusServiceUnavailable, "the request ended before a lookup could start")
	}
	return false
}

// logf writes one line to the log.
func (h *handler) logf(format string, args ...any) {
	h.logMu.Lock()
	defer h.logMu.Unlock()
	fmt.Fprintf(h.opt.Log, "prerel serve: lookup of %s\n", printable.String(fmt.Sprintf(format, args...)))
}

// lookupMessage is the answer's error for a failed lookup: what failed,
// without the registry's detail (which URLs were tried, what a host
// answered), which goes to the server's log.
func lookupMessage(q Query, status int) string {
	what := q.Kind + " " + printable.String(q.Canonical)
	switch status {
	case http.StatusNotFound:
		return what + ": not found in its registry"
	case http.StatusGatewayTimeout:
		return what + ": the lookup took longer than the server allows"
	case http.StatusServiceUnavailable:
		return what + ": the request ended before the lookup did"
	}
	return what + ": the registry lookup failed (the server's log says why)"
}

// Query is a request of /api/versions, read by ParseQuery.
type Query struct {
	// Address is the address asked, trimmed of spaces.
	Address string
	// Kind is "module" or "provider".
	Kind string
	// Canonical is the address in full, with its registry host.
	Canonical string
	// Host is the registry host of the address, lower case, with a port
	// if any.
	Host string

	module   tfaddr.ModulePackage
	provider tfaddr.Provider
}

// ParseQuery reads the parameters of /api/versions: address and the
// optional kind. An error comes with the HTTP status to answer: 400.
func ParseQuery(v url.Values) (Query, int, error) {
	addr, kind := v.Get("address"), v.Get("kind")
	switch {
	case len(addr) > MaxAddress:
		return Query{}, http.StatusBadRequest, fmt.Errorf("the address is %d bytes long, more than %d", len(addr), MaxAddress)
	case strings.TrimSpace(addr) == "":
		return Query{}, http.StatusBadRequest, errors.New("no address: give ?address=NAMESPACE/NAME/SYSTEM for a module or ?address=NAMESPACE/TYPE for a provider")
	}
	addr = strings.TrimSpace(addr)
	if kind == "" {
		kind = guessKind(addr)
	}
	q := Query{Address: addr, Kind: kind}
	switch kind {
	case "module":
		pkg, err := address.ParseModulePackage(addr)
		if err != nil {
			return Query{}, http.StatusBadRequest, errors.New(printable.String(err.Error()) + "; a module address is NAMESPACE/NAME/SYSTEM or HOST/NAMESPACE/NAME/SYSTEM")
		}
		q.module, q.Canonical, q.Host = pkg, pkg.String(), strings.ToLower(pkg.Host.String())
	case "provider":
		p, err := address.ParseProvider(addr)
		if err != nil {
			return Query{}, http.StatusBadRequest, errors.New(printable.String(err.Error()) + "; a provider address is NAMESPACE/TYPE or HOST/NAMESPACE/TYPE")
		}
		q.provider, q.Canonical, q.Host = p, address.ProviderKey(p), strings.ToLower(p.Hostname.String())
	default:
		// %q escapes what does not print, once.
		return Query{}, http.StatusBadRequest, fmt.Errorf("kind %q: expected module or provider", clip(kind, 40))
	}
	return q, 0, nil
}

// guessKind says whether an address of the API is a module's or a
// provider's, by its parts: two are a provider, four a module, and three
// a provider when the first is a host name.
func guessKind(addr string) string {
	parts := strings.Split(addr, "/")
	switch {
	case len(parts) <= 2:
		return "provider"
	case len(parts) == 3 && isHost(parts[0]):
		return "provider"
	}
	return "module"
}

// isHost reports whether the first part of an address names a host.
func isHost(s string) bool {
	return strings.ContainsAny(s, ".:") || strings.EqualFold(s, "localhost")
}

// lookupStatus is the status of a failed lookup.
func lookupStatus(ctx context.Context, err error) int {
	switch {
	case errors.Is(err, registry.ErrNotFound):
		return http.StatusNotFound
	case ctx.Err() != nil:
		return http.StatusServiceUnavailable // the page went away
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusGatewayTimeout
	}
	return http.StatusBadGateway
}

// writeJSON writes v with status, "<", ">" and "&" as they are.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
		fmt.Fprintf(&b, "{\"error\":%q}\n", "cannot encode the answer: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// writeError writes {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// clip shortens s to at most n bytes, for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
