package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/internal/printable"
)

// Source lists the available versions of modules and providers: a live
// registry (Client) or an offline index (Index).
type Source interface {
	ModuleVersions(ctx context.Context, pkg tfaddr.ModulePackage) (*Listing, error)
	ProviderVersions(ctx context.Context, p tfaddr.Provider) (*Listing, error)
	// String says where the versions come from, for reports.
	String() string
}

// ErrNotFound is wrapped by the error for an address the registry or the
// index does not know (HTTP 404, or no such key).
var ErrNotFound = errors.New("not found")

// Defaults of a Client's zero fields, and the limits it keeps to.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultRetries      = 3
	DefaultRetryWait    = 500 * time.Millisecond
	DefaultMaxRetryWait = 10 * time.Second
	DefaultMaxBodyBytes = 4 << 20
	// DefaultDeadline bounds all the lookups of a Client, counted from its
	// first request.
	DefaultDeadline = 2 * time.Minute
	// DefaultMaxRetryTime bounds the retries of one request: no retry is
	// started whose wait would end later than this after the first attempt.
	DefaultMaxRetryTime = 30 * time.Second
	// DefaultHostErrorLimit is how many 5xx answers in a row a host may
	// give before its requests are no longer retried.
	DefaultHostErrorLimit = 8
	// MaxRetries caps Client.Retries: a larger number counts as this.
	MaxRetries = 10
	// MaxRedirects is how many redirects one request follows.
	MaxRedirects = 10
)

// Client speaks the Terraform registry protocol. For a host it first
// fetches the service discovery document, https://HOST/.well-known/terraform.json,
// and reads its "modules.v1" and "providers.v1" URLs (relative to the
// document's URL after any redirect, or absolute). Versions are then
//
//	GET <modules.v1>NAMESPACE/NAME/SYSTEM/versions
//	GET <providers.v1>NAMESPACE/TYPE/versions
//
// Every request has a timeout, and all the lookups of a Client share one
// deadline. A 429 or 5xx answer is retried a bounded number of times,
// waiting RetryWait, then twice as long each time (or what a Retry-After
// header asks, up to MaxRetryWait), within MaxRetryTime for one request;
// once a host has given HostErrorLimit 5xx answers in a row, its requests
// are made once, without retries. Bodies are read up to MaxBodyBytes; a
// longer one is an error. Errors say what was asked, of which URL, and
// what went wrong: 404 (wrapping ErrNotFound), another status, malformed
// JSON with line and column, an unreachable host, a redirect that cannot
// be followed, a body cut off, a timeout. URLs in errors and in String
// have their userinfo redacted, and text from the registry (a status
// line) has its control characters escaped.
//
// With Credentials set, a request carries "Authorization: Bearer TOKEN"
// as the package documentation says; a 401 or 403 error says which
// credentials were tried and how to provide one.
//
// The zero Client is ready to use against the hosts the addresses name. A
// Client is safe for concurrent use; discovery is done once per host.
type Client struct {
	// HTTPClient sends the requests; nil means http.DefaultClient. Its
	// CheckRedirect, if any, is called after the Client's own checks.
	HTTPClient *http.Client
	// BaseURL, when set, replaces discovery on every host: the document is
	// fetched from BaseURL's path joined with ".well-known/terraform.json"
	// instead. It points a whole run at a mirror, a private registry or a
	// test server. It must be an http or https URL without a query or a
	// fragment (see ParseBaseURL).
	BaseURL string
	// HostURLs replaces discovery for the hosts it names (lower case host,
	// with a port if any), as BaseURL does for all; it wins over BaseURL.
	HostURLs map[string]string
	// HostBlocks gives the services of the hosts it names (keyed as
	// HostURLs is), as the host blocks of Terraform's CLI configuration
	// do: a lookup on such a host uses them and fetches no discovery
	// document. BaseURL and HostURLs win over it.
	HostBlocks map[string]HostBlock
	// Credentials gives the token sent to a host; nil means none is sent.
	Credentials Credentials
	// Timeout bounds each request, body included; 0 means DefaultTimeout.
	Timeout time.Duration
	// Deadline bounds all the lookups of the Client together, counted from
	// its first request: when it passes, requests under way are stopped
	// and every later lookup fails at once. 0 means DefaultDeadline, a
	// negative duration none.
	Deadline time.Duration
	// Retries is how many times a 429 or 5xx answer is retried; 0 means
	// DefaultRetries, a negative number none, and a number above
	// MaxRetries counts as MaxRetries.
	Retries int
	// RetryWait is the wait before the first retry, doubled for each next
	// one; 0 means DefaultRetryWait.
	RetryWait time.Duration
	// MaxRetryWait caps every wait, Retry-After included; 0 means
	// DefaultMaxRetryWait.
	MaxRetryWait time.Duration
	// MaxRetryTime bounds the retries of one request: a retry whose wait
	// would end later than this after the first attempt is not made. 0
	// means DefaultMaxRetryTime.
	MaxRetryTime time.Duration
	// HostErrorLimit is how many 5xx answers in a row one host may give
	// before its requests are no longer retried (an answer other than 5xx
	// or 429 starts the count again); 0 means DefaultHostErrorLimit, a
	// negative number no limit.
	HostErrorLimit int
	// MaxBodyBytes caps each response body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// UserAgent is sent with every request; "" means "prerel".
	UserAgent string
	// V2URL is registry.terraform.io's v2 API, where the dates of its
	// modules and providers come from; "" means DefaultV2URL.
	V2URL string
	// OpenTofuDocsURL is the OpenTofu registry's documentation API, where
	// the dates of registry.opentofu.org's modules and providers come
	// from; "" means DefaultOpenTofuDocsURL.
	OpenTofuDocsURL string

	mu         sync.Mutex
	discovery  map[string]*discovered
	deadlineAt time.Time
	hostErrors map[string]int
}

var _ Source = (*Client)(nil)

// Services are the registry endpoints a host's discovery document names,
// as absolute URLs ending in "/"; "" when the host does not offer one. A
// relative endpoint keeps the userinfo of the URL it is relative to: print
// them through RedactURL.
type Services struct {
	Modules   string
	Providers string

	modules, providers *url.URL
	// The hosts whose tokens the lookups of each service carry.
	modulesAuth, providersAuth string
	// where names what gave the services, for messages: the discovery
	// document's URL, or the host block.
	where string
	// block is true for services a host block gives.
	block bool
}

type discovered struct {
	once sync.Once
	svc  Services
	err  error
}

// String describes where the client looks, with the userinfo of every
// URL redacted. A nil Client is described too.
func (c *Client) String() string {
	switch {
	case c == nil:
		return "registry (none)"
	case c.BaseURL != "" && len(c.HostURLs) == 0:
		return printable.String(RedactURL("registry " + c.BaseURL))
	case len(c.HostURLs) > 0:
		hosts := make([]string, 0, len(c.HostURLs)+1)
		for h, u := range c.HostURLs {
			hosts = append(hosts, h+"="+u)
		}
		slices.Sort(hosts)
		if c.BaseURL != "" {
			hosts = append(hosts, "others="+c.BaseURL)
		}
		return printable.String(RedactURL("registry " + strings.Join(hosts, ", ")))
	case len(c.HostBlocks) > 0:
		hosts := make([]string, 0, len(c.HostBlocks))
		for h := range c.HostBlocks {
			hosts = append(hosts, h)
		}
		slices.Sort(hosts)
		return printable.String("registry (service discovery on each source's host; the services of host blocks for " + strings.Join(hosts, ", ") + ")")
	default:
		return "registry (service discovery on each source's host)"
	}
}

// ErrNilClient is the error of the methods of a nil *Client.
var ErrNilClient = errors.New("no registry client (a nil *registry.Client)")

// DiscoveryURL returns the URL of the discovery document for host, or ""
// when the URL host is mapped to is not a valid base URL, when a host
// block gives the services of host (and no mapping wins over it), or when
// c is nil.
func (c *Client) DiscoveryURL(host string) string {
	if c == nil {
		return ""
	}
	if _, ok := c.hostBlock(strings.ToLower(host)); ok && c.mappedURL(host) == "" {
		return ""
	}
	u, err := c.discoveryURL(host)
	if err != nil {
		return ""
	}
	return u.String()
}

func (c *Client) discoveryURL(host string) (*url.URL, error) {
	base := c.mappedURL(host)
	if base == "" {
		return &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}, nil
	}
	u, err := ParseBaseURL(base)
	if err != nil {
		return nil, err
	}
	return u.JoinPath(".well-known", "terraform.json"), nil
}

// Maps reports whether BaseURL or HostURLs gives the URL of host, which
// then wins over the CLI configuration for that host.
func (c *Client) Maps(host string) bool {
	return c != nil && c.mappedURL(host) != ""
}

// mappedURL returns the URL HostURLs or BaseURL maps host to, or "".
func (c *Client) mappedURL(host string) string {
	if u, ok := c.HostURLs[host]; ok {
		return u
	}
	key := normalizeHost(host)
	for h, u := range c.HostURLs {
		if normalizeHost(h) == key {
			return u
		}
	}
	return c.BaseURL
}

// Discover returns the services of host, fetching its discovery document
// on first use. A nil Client returns ErrNilClient, as ModuleVersions and
// ProviderVersions do.
func (c *Client) Discover(ctx context.Context, host string) (Services, error) {
	if c == nil {
		return Services{}, ErrNilClient
	}
	ctx, cancel := c.runContext(ctx)
	defer cancel()
	svc, err := c.discoverOnce(ctx, host)
	return svc, clean(err)
}

func (c *Client) discoverOnce(ctx context.Context, host string) (Services, error) {
	host = strings.ToLower(host)
	c.mu.Lock()
	if c.discovery == nil {
		c.discovery = map[string]*discovered{}
	}
	d := c.discovery[host]
	if d == nil {
		d = &discovered{}
		c.discovery[host] = d
	}
	c.mu.Unlock()
	d.once.Do(func() { d.svc, d.err = c.discover(ctx, host) })
	return d.svc, d.err
}

func (c *Client) discover(ctx context.Context, host string) (Services, error) {
	mapped := c.mappedURL(host) != ""
	if !mapped {
		if hb, ok := c.hostBlock(host); ok {
			return hb.services(host)
		}
	}
	docURL, err := c.discoveryURL(host)
	if err != nil {
		return Services{}, fmt.Errorf("service discovery for %s: %v", host, err)
	}
	shown := redactedURL(docURL)
	authHost := hostKey(docURL)
	resp, err := c.get(ctx, docURL, authHost)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return Services{}, fmt.Errorf("service discovery for %s: %w (is %s a Terraform registry?)", host, err, host)
		}
		if !mapped {
			hintUnresolved(err, authHost, fmt.Sprintf("to look %s up elsewhere, give --registry-url %s=URL or a host %q block with its services in the CLI configuration", host, host, host))
		}
		return Services{}, fmt.Errorf("service discovery for %s: %w", host, err)
	}
	if !sameURL(resp.url, docURL) {
		shown += " (redirected to " + redactedURL(resp.url) + ")"
	}
	var doc map[string]json.RawMessage
	if err := decodeJSON(resp.body, &doc); err != nil {
		return Services{}, fmt.Errorf("service discovery for %s: %s: %w", host, shown, err)
	}
	svc := Services{modulesAuth: authHost, providersAuth: authHost, where: redactedURL(docURL)}
	for _, s := range []struct {
		key  string
		text *string
		u    **url.URL
	}{{"modules.v1", &svc.Modules, &svc.modules}, {"providers.v1", &svc.Providers, &svc.providers}} {
		raw, ok := doc[s.key]
		if !ok {
			continue
		}
		var ref string
		if err := json.Unmarshal(raw, &ref); err != nil {
			return Services{}, fmt.Errorf("service discovery for %s: %s: %q is not a string", host, shown, s.key)
		}
		// Relative to where the document was found, after redirects, as
		// Terraform resolves it.
		abs, problem := serviceURL(resp.url, ref)
		if problem != "" {
			return Services{}, fmt.Errorf("service discovery for %s: %s: %q is %q, %s", host, shown, s.key, RedactURL(ref), problem)
		}
		*s.u, *s.text = abs, abs.String()
	}
	return svc, nil
}

// serviceURL resolves the URL of a service, ref, against base as
// Terraform does, and checks it: problem says what is wrong with it ("not
// a URL"), or is "". The URL returned has no fragment and ends in "/".
func serviceURL(base *url.URL, ref string) (abs *url.URL, problem string) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, "not a URL"
	}
	if u.User != nil {
		return nil, "which embeds a user name or password"
	}
	abs = base.ResolveReference(u)
	if abs.Scheme != "http" && abs.Scheme != "https" || abs.Host == "" {
		return nil, "not an http or https URL"
	}
	abs.Fragment, abs.RawFragment = "", ""
	if !strings.HasSuffix(abs.Path, "/") {
		abs = abs.JoinPath("/")
	}
	return abs, ""
}

func sameURL(a, b *url.URL) bool { return a.String() == b.String() }

// ModuleVersions lists the versions of a module:
// GET <modules.v1>NAMESPACE/NAME/SYSTEM/versions on addr.Host.
func (c *Client) ModuleVersions(ctx context.Context, pkg tfaddr.ModulePackage) (*Listing, error) {
	if c == nil {
		return nil, ErrNilClient
	}
	ctx, cancel := c.runContext(ctx)
	defer cancel()
	l, err := c.moduleVersions(ctx, pkg)
	return l, clean(err)
}

func (c *Client) moduleVersions(ctx context.Context, pkg tfaddr.ModulePackage) (*Listing, error) {
	addr, host := pkg.ForDisplay(), pkg.Host.String()
	svc, err := c.discoverOnce(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("module %s: %w", addr, err)
	}
	if svc.modules == nil {
		return nil, fmt.Errorf("module %s: %s offers no module registry (no modules.v1 in %s)", addr, host, svc.where)
	}
	u := endpoint(svc.modules, pkg.Namespace, pkg.Name, pkg.TargetSystem)
	resp, err := c.get(ctx, u, svc.modulesAuth)
	if err != nil {
		if svc.block {
			hintUnresolved(err, hostKey(u), svc.where+" gives this URL")
		}
		return nil, fmt.Errorf("module %s: %w", addr, err)
	}
	vs, err := DecodeModuleVersions(resp.body)
	if err != nil {
		return nil, fmt.Errorf("module %s: %s: %w", addr, redactedURL(u), err)
	}
	return &Listing{Versions: vs, From: redactedURL(u)}, nil
}

// ProviderVersions lists the versions of a provider:
// GET <providers.v1>NAMESPACE/TYPE/versions on addr.Host.
func (c *Client) ProviderVersions(ctx context.Context, p tfaddr.Provider) (*Listing, error) {
	if c == nil {
		return nil, ErrNilClient
	}
	ctx, cancel := c.runContext(ctx)
	defer cancel()
	l, err := c.providerVersions(ctx, p)
	return l, clean(err)
}

func (c *Client) providerVersions(ctx context.Context, p tfaddr.Provider) (*Listing, error) {
	addr, host := p.ForDisplay(), p.Hostname.String()
	svc, err := c.discoverOnce(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", addr, err)
	}
	if svc.providers == nil {
		return nil, fmt.Errorf("provider %s: %s offers no provider registry (no providers.v1 in %s)", addr, host, svc.where)
	}
	u := endpoint(svc.providers, p.Namespace, p.Type)
	resp, err := c.get(ctx, u, svc.providersAuth)
	if err != nil {
		if svc.block {
			hintUnresolved(err, hostKey(u), svc.where+" gives this URL")
		}
		return nil, fmt.Errorf("provider %s: %w", addr, err)
	}
	vs, warnings, err := DecodeProviderVersions(resp.body)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %s: %w", addr, redactedURL(u), err)
	}
	return &Listing{Versions: vs, Warnings: warnings, From: redactedURL(u)}, nil
}

// endpoint returns the versions URL of the address parts under a service
// URL: each part path-escaped and joined with net/url, the service URL's
// query dropped, as Terraform resolves the relative path against it.
func endpoint(svc *url.URL, parts ...string) *url.URL {
	elems := make([]string, 0, len(parts)+1)
	for _, p := range parts {
		elems = append(elems, url.PathEscape(p))
	}
	u := svc.JoinPath(append(elems, "versions")...)
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	return u
}

// StatusError is a response with a status other than 200.
//
// The message of a server error (5xx) or of 429 Too Many Requests names
// the host rather than the URL ("registry.example.com answered 503
// Service Unavailable (after 4 attempts)"), so that the lookups one
// failing host fails read alike; URL keeps the URL. A report sums them up
// in one line per host with HostError and HostFailures, whether they
// were retried or made past the host's limit of errors in a row. Any
// other status is told with the URL.
type StatusError struct {
	// URL is the URL requested, with its userinfo redacted.
	URL string
	// Host is the host that answered, as the client counts its errors
	// ("registry.example.com", "127.0.0.1:8080").
	Host string
	// StatusCode is the HTTP status, such as 503.
	StatusCode int
	// Status is the status line as the server sent it; Error escapes its
	// control characters.
	Status string
	// Attempts is how many times the request was made.
	Attempts int
	// Detail is what the client adds: why it stopped retrying, or, for a
	// 401 or 403, which credentials were tried and how to provide one.
	Detail string

	hostLimit int // the host's errors in a row past which this request was not retried, or 0
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("GET %s: %s", e.URL, printable.String(e.Status))
	if retryable(e.StatusCode) && e.Host != "" {
		s = fmt.Sprintf("%s answered %s", printable.String(e.Host), printable.String(e.Status))
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
	}
	if e.Detail != "" {
		s += "; " + e.Detail
	}
	return s
}

// Unwrap returns ErrNotFound for a 404.
func (e *StatusError) Unwrap() error {
	if e.StatusCode == http.StatusNotFound {
		return ErrNotFound
	}
	return nil
}

// runContext returns ctx bounded by the Client's deadline, which starts
// with the first call.
func (c *Client) runContext(ctx context.Context) (context.Context, context.CancelFunc) {
	d := c.Deadline
	if d == 0 {
		d = DefaultDeadline
	}
	if d < 0 {
		return ctx, func() {}
	}
	c.mu.Lock()
	if c.deadlineAt.IsZero() {
		c.deadlineAt = time.Now().Add(d)
	}
	at := c.deadlineAt
	c.mu.Unlock()
	return context.WithDeadlineCause(ctx, at, &deadlineError{d})
}

// deadlineError is the cause of a context ended by Client.Deadline.
type deadlineError struct{ d time.Duration }

func (e *deadlineError) Error() string {
	return fmt.Sprintf("the %s deadline for all registry lookups has passed", e.d)
}

// Is makes the error match context.DeadlineExceeded.
func (e *deadlineError) Is(target error) bool { return target == context.DeadlineExceeded }

// response is a 200 answer: its body and the URL it came from, after
// redirects.
type response struct {
	body        []byte
	url         *url.URL
	contentType string
}

// get fetches u with retries and returns the body of a 200 answer. The
// token of authHost goes with the request when it may.
func (c *Client) get(ctx context.Context, u *url.URL, authHost string) (*response, error) {
	retries := c.Retries
	switch {
	case retries == 0:
		retries = DefaultRetries
	case retries < 0:
		retries = 0
	case retries > MaxRetries:
		retries = MaxRetries
	}
	wait := c.RetryWait
	if wait <= 0 {
		wait = DefaultRetryWait
	}
	maxWait := c.MaxRetryWait
	if maxWait <= 0 {
		maxWait = DefaultMaxRetryWait
	}
	budget := c.MaxRetryTime
	if budget <= 0 {
		budget = DefaultMaxRetryTime
	}
	host := hostKey(u)
	start := time.Now()
	for attempt := 1; ; attempt++ {
		resp, retryAfter, err := c.getOnce(ctx, u, authHost)
		var se *StatusError
		if !errors.As(err, &se) {
			if err == nil {
				c.hostAnswered(host, 200)
			}
			return resp, err
		}
		se.Attempts = attempt
		c.hostAnswered(host, se.StatusCode)
		if !retryable(se.StatusCode) || attempt > retries {
			return nil, err
		}
		if n, limit := c.hostErrorCount(host); limit > 0 && n >= limit {
			// The limit, not n: the lookups of a host past it read alike.
			se.Detail = fmt.Sprintf("not retried: %s gave %d server errors in a row", host, limit)
			se.hostLimit = limit
			return nil, err
		}
		d := wait
		if retryAfter > d {
			d = retryAfter
		}
		if d > maxWait {
			d = maxWait
		}
		// The retry would end past the earlier of the limit on this
		// request's retries and the deadline of the run or the caller.
		end := time.Now().Add(d)
		limitAt, why := start.Add(budget), fmt.Sprintf("the %s limit on one request's retries", budget)
		if at, ok := ctx.Deadline(); ok && at.Before(limitAt) {
			limitAt, why = at, "the caller's deadline"
			if c.isRunDeadline(at) {
				why = fmt.Sprintf("the %s deadline for all registry lookups", c.deadline())
			}
		}
		if end.After(limitAt) {
			se.Detail = fmt.Sprintf("not retried: waiting %s more would pass %s", d, why)
			return nil, err
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("GET %s: %w (while waiting to retry after %s)", redactedURL(u), contextError(ctx), printable.String(se.Status))
		case <-t.C:
		}
		wait *= 2
	}
}

func (c *Client) deadline() time.Duration {
	if c.Deadline == 0 {
		return DefaultDeadline
	}
	return c.Deadline
}

func (c *Client) isRunDeadline(at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return at.Equal(c.deadlineAt)
}

// hostAnswered counts a host's 5xx answers in a row; an answer other than
// 5xx or 429 starts the count again.
func (c *Client) hostAnswered(host string, code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case code >= 500 && code <= 599:
		if c.hostErrors == nil {
			c.hostErrors = map[string]int{}
		}
		c.hostErrors[host]++
	case code != http.StatusTooManyRequests:
		delete(c.hostErrors, host)
	}
}

// hostErrorCount returns the count of 5xx answers in a row from host, and
// the limit past which its requests are not retried (0: none).
func (c *Client) hostErrorCount(host string) (n, limit int) {
	limit = c.HostErrorLimit
	switch {
	case limit == 0:
		limit = DefaultHostErrorLimit
	case limit < 0:
		limit = 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hostErrors[host], limit
}

func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500 && code <= 599
}

// redirectError is a redirect the client does not follow.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// getOnce makes one request. For a retryable status it also returns the
// wait a Retry-After header asks for.
func (c *Client) getOnce(parent context.Context, u *url.URL, authHost string) (*response, time.Duration, error) {
	shown := redactedURL(u)
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, 0, fmt.Errorf("GET %s: %v", shown, RedactURL(unwrapURLError(err).Error()))
	}
	ua := c.UserAgent
	if ua == "" {
		ua = "prerel"
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "application/json")
	a := c.authFor(authHost, u)
	if a.sent {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	client := *hc
	var last *url.URL // the last redirect target
	left := false     // whether a redirect left the token's host
	next := hc.CheckRedirect
	client.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		last = r.URL
		if r.URL.Scheme != "http" && r.URL.Scheme != "https" {
			return &redirectError{fmt.Sprintf("the registry redirected to %s, which is not an http or https URL", RedactURL(r.URL.String()))}
		}
		if len(via) >= MaxRedirects {
			return &redirectError{fmt.Sprintf("the registry redirected more than %d times, last to %s (a redirect loop?)", MaxRedirects, redactedURL(r.URL))}
		}
		// The token goes to its own host only, and never again once a
		// redirect has left it.
		if ok, _ := tokenAllowed(authHost, r.URL); a.sent && !ok {
			left = true
		}
		if left || !a.sent {
			r.Header.Del("Authorization")
		}
		if next != nil {
			return next(r, via)
		}
		return nil
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, transportError(parent, u, timeout, err, last)
	}
	defer resp.Body.Close()
	final := u
	if resp.Request != nil && resp.Request.URL != nil {
		final = resp.Request.URL
	}
	if resp.StatusCode != http.StatusOK {
		// Drain a little so the connection can be reused.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		se := &StatusError{URL: shown, Host: hostKey(u), StatusCode: resp.StatusCode, Status: resp.Status}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			if left {
				a.sent = false
				a.why = "a redirect to " + redactedURL(final) + " left the host it is for"
			}
			se.Detail = c.authHint(a, final, resp.StatusCode)
		}
		return nil, retryAfter(resp.Header.Get("Retry-After")), se
	}
	limit := c.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, bodyError(parent, shown, timeout, err, len(body), resp.ContentLength)
	}
	if int64(len(body)) > limit {
		return nil, 0, fmt.Errorf("GET %s: the response body is larger than the limit of %d bytes", shown, limit)
	}
	return &response{body: body, url: final, contentType: resp.Header.Get("Content-Type")}, 0, nil
}

// contextError is the reason ctx ended: the Client's deadline, or the
// caller's cancellation or deadline.
func contextError(ctx context.Context) error {
	var de *deadlineError
	if cause := context.Cause(ctx); errors.As(cause, &de) {
		return de
	}
	return ctx.Err()
}

// transportError says why the request for u got no answer: a timeout, a
// run cancelled or out of time, a redirect not followed, or a host that
// cannot be reached. A timeout and a host that cannot be reached, by
// the error's type, are an UnreachableError.
func transportError(parent context.Context, u *url.URL, timeout time.Duration, err error, redirect *url.URL) error {
	shown := redactedURL(u)
	target := u // the URL whose host got no answer
	if redirect != nil {
		target = redirect
	}
	var ne net.Error
	var re *redirectError
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("GET %s: %w", shown, contextError(parent))
	case errors.As(err, &re):
		return fmt.Errorf("GET %s: %s", shown, re.msg)
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		msg := fmt.Sprintf("GET %s: no complete answer within the %s timeout", shown, timeout)
		return &UnreachableError{URL: redactedURL(target), Host: hostKey(target), Err: err, msg: msg}
	}
	inner := RedactURL(unwrapURLError(err).Error())
	var msg string
	switch {
	case redirect != nil:
		msg = fmt.Sprintf("GET %s: the registry redirected to %s, which cannot be reached: %s", shown, redactedURL(redirect), inner)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("GET %s: the registry closed the connection without an answer", shown)
	default:
		msg = fmt.Sprintf("GET %s: cannot reach the registry: %s", shown, inner)
	}
	if unreachable(err) {
		return &UnreachableError{URL: redactedURL(target), Host: hostKey(target), Err: err, msg: msg}
	}
	return errors.New(msg)
}

// unreachable reports whether a transport error says that the host
// could not be reached: its name did not resolve (*net.DNSError), or
// connecting to it, or sending or reading on the connection, failed
// (*net.OpError of a dial, a write or a read).
func unreachable(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	return errors.As(err, &dns) || errors.As(err, &op) && (op.Op == "dial" || op.Op == "read" || op.Op == "write")
}

// UnreachableError is a request that got no answer because its host
// could not be reached: the host's name did not resolve, connecting to
// it failed (refused, no route), the connection broke before an answer,
// or no answer came within the client's timeout. Its message is the
// request's error as the client words any error of the transport ("GET
// URL: cannot reach the registry: dial tcp ...: connection refused"); a
// report may sum up the lookups of one unreachable host in one line
// (package resolve). It does not unwrap to Err, so that a request's
// timeout is not taken for its caller's deadline.
type UnreachableError struct {
	// URL is the URL that got no answer (a redirect's target, when the
	// registry redirected), with its userinfo redacted.
	URL string
	// Host is the host of URL, as StatusError names a host
	// ("registry.example.com", "127.0.0.1:8080").
	Host string
	// Err is the HTTP client's error: a *url.Error, which holds a
	// *net.OpError, a *net.DNSError or a timeout.
	Err error
	// Hint says what may help, or is "": for a host name that does not
	// resolve, how to look the host up elsewhere (--registry-url or a
	// host block), or where the URL that names it comes from.
	Hint string

	msg string
}

// Error is the request's error, followed by the Hint when there is one.
func (e *UnreachableError) Error() string {
	if e.Hint != "" {
		return e.msg + "; " + e.Hint
	}
	return e.msg
}

// hintUnresolved sets the Hint of err, when it is an UnreachableError
// because the name of host did not resolve and it has none yet.
func hintUnresolved(err error, host, hint string) {
	var ue *UnreachableError
	var dns *net.DNSError
	if errors.As(err, &ue) && ue.Hint == "" && ue.Host == host && errors.As(ue.Err, &dns) {
		ue.Hint = hint
	}
}

// Cause says in a few words why the host could not be reached, from the
// type of Err: "no such host" (or what else the name's lookup said),
// followed by the Hint when there is one, "timed out", or what the
// failed dial, read or write says ("connection refused", "connection
// reset by peer").
func (e *UnreachableError) Cause() string {
	var dns *net.DNSError
	var ne net.Error
	var op *net.OpError
	switch {
	case errors.As(e.Err, &dns):
		if e.Hint != "" {
			return printable.String(dns.Err + "; " + e.Hint)
		}
		return printable.String(dns.Err)
	case errors.Is(e.Err, context.DeadlineExceeded) || errors.As(e.Err, &ne) && ne.Timeout():
		return "timed out"
	case errors.As(e.Err, &op) && op.Err != nil:
		inner := op.Err
		var sys *os.SyscallError
		if errors.As(inner, &sys) {
			inner = sys.Err
		}
		return printable.String(RedactURL(inner.Error()))
	}
	return printable.String(RedactURL(unwrapURLError(e.Err).Error()))
}

// bodyError says why the body of a 200 answer could not be read whole.
func bodyError(parent context.Context, shown string, timeout time.Duration, err error, got int, announced int64) error {
	var ne net.Error
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("GET %s: %w", shown, contextError(parent))
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("GET %s: no complete answer within the %s timeout", shown, timeout)
	case errors.Is(err, io.ErrUnexpectedEOF) && announced > 0:
		return fmt.Errorf("GET %s: the answer was cut off: the connection closed after %d of the %d bytes the registry announced", shown, got, announced)
	default:
		return fmt.Errorf("GET %s: the connection failed after %d bytes of the answer: %s", shown, got, RedactURL(err.Error()))
	}
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryAfter reads a Retry-After header given in seconds; a date or
// anything else is ignored.
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || n < 0 {
		return 0
	}
	if n > 1<<20 {
		n = 1 << 20
	}
	return time.Duration(n) * time.Second
}

// cleanError is an error whose text has URL userinfo redacted and control
// characters escaped; it unwraps to the original.
type cleanError struct {
	msg string
	err error
}

func (e *cleanError) Error() string { return e.msg }
func (e *cleanError) Unwrap() error { return e.err }

// clean makes err safe to print: no URL userinfo, no control character.
func clean(err error) error {
	if err == nil {
		return nil
	}
	msg := printable.String(RedactURL(err.Error()))
	if msg == err.Error() {
		return err
	}
	return &cleanError{msg: msg, err: err}
}
