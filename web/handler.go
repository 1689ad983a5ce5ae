package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"

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
)

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

// Handler serves the site in site (see CheckSite) and the API of the
// package documentation; versions gives the source of each lookup, nil
// for none (a static site: /api/versions answers 503). Only GET and HEAD
// are answered.
func Handler(site fs.FS, versions Versions) http.Handler {
	h := &handler{site: site, versions: versions, lookups: make(chan struct{}, MaxLookups)}
	return http.HandlerFunc(h.serve)
}

type handler struct {
	site     fs.FS
	versions Versions
	lookups  chan struct{}
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", ContentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s is not allowed: only GET and HEAD", printable.String(clip(r.Method, 20))))
		return
	}
	switch p := r.URL.Path; {
	case p == "/api/status":
		writeJSON(w, http.StatusOK, map[string]bool{"versions": h.versions != nil})
	case p == "/api/versions":
		h.lookup(w, r)
	case strings.HasPrefix(p, "/api/"):
		writeError(w, http.StatusNotFound, fmt.Sprintf("no such API: %s (there are /api/status and /api/versions)", printable.String(clip(p, 100))))
	default:
		h.file(w, r)
	}
}

// file serves one file of the site: "/" is index.html; any name but
// those of SiteFiles is not found.
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
	content, ok := f.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(f)
		if err != nil {
			http.Error(w, fmt.Sprintf("%s cannot be read: %v", name, err), http.StatusInternalServerError)
			return
		}
		content = bytes.NewReader(data)
	}
	w.Header().Set("Content-Type", contentTypes[path.Ext(name)])
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, name, fi.ModTime(), content)
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
	if h.versions == nil {
		writeError(w, http.StatusServiceUnavailable, "this server looks no versions up: run prerel serve to look a module's or provider's versions up in its registry")
		return
	}
	q := r.URL.Query()
	addr, kind := q.Get("address"), q.Get("kind")
	switch {
	case len(addr) > MaxAddress:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the address is %d bytes long, more than %d", len(addr), MaxAddress))
		return
	case strings.TrimSpace(addr) == "":
		writeError(w, http.StatusBadRequest, "no address: give ?address=NAMESPACE/NAME/SYSTEM for a module or ?address=NAMESPACE/TYPE for a provider")
		return
	}
	addr = strings.TrimSpace(addr)
	if kind == "" {
		kind = guessKind(addr)
	}
	src, err := h.versions()
	if err != nil {
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	select {
	case h.lookups <- struct{}{}:
		defer func() { <-h.lookups }()
	case <-r.Context().Done():
		writeError(w, http.StatusServiceUnavailable, "the request ended before a lookup could start")
		return
	}
	ans := versionsAnswer{Address: addr, Kind: kind, Warnings: []string{}}
	var l *registry.Listing
	switch kind {
	case "module":
		pkg, perr := address.ParseModulePackage(addr)
		if perr != nil {
			writeError(w, http.StatusBadRequest, perr.Error()+"; a module address is NAMESPACE/NAME/SYSTEM or HOST/NAMESPACE/NAME/SYSTEM")
			return
		}
		ans.Canonical = pkg.String()
		l, err = src.ModuleVersions(r.Context(), pkg)
	case "provider":
		p, perr := address.ParseProvider(addr)
		if perr != nil {
			writeError(w, http.StatusBadRequest, perr.Error()+"; a provider address is NAMESPACE/TYPE or HOST/NAMESPACE/TYPE")
			return
		}
		ans.Canonical = address.ProviderKey(p)
		l, err = src.ProviderVersions(r.Context(), p)
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("kind %q: expected module or provider", printable.String(clip(kind, 40))))
		return
	}
	if err != nil {
		writeError(w, lookupStatus(r.Context(), err), err.Error())
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
