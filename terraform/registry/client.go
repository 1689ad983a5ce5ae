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
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"
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

// Defaults of a Client's zero fields.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultRetries      = 3
	DefaultRetryWait    = 500 * time.Millisecond
	DefaultMaxRetryWait = 10 * time.Second
	DefaultMaxBodyBytes = 4 << 20
)

// Client speaks the Terraform registry protocol. For a host it first
// fetches the service discovery document, https://HOST/.well-known/terraform.json,
// and reads its "modules.v1" and "providers.v1" URLs (relative to the
// document, or absolute). Versions are then
//
//	GET <modules.v1>NAMESPACE/NAME/SYSTEM/versions
//	GET <providers.v1>NAMESPACE/TYPE/versions
//
// Every request has a timeout. A 429 or 5xx answer is retried a bounded
// number of times, waiting RetryWait, then twice as long each time (or
// what a Retry-After header asks, up to MaxRetryWait). Bodies are read up
// to MaxBodyBytes; a longer one is an error. Errors say what was asked,
// of which URL, and what went wrong: 404 (wrapping ErrNotFound), another
// status, malformed JSON with line and column, an unreachable host, a
// timeout.
//
// The zero Client is ready to use against the hosts the addresses name. A
// Client is safe for concurrent use; discovery is done once per host.
type Client struct {
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// BaseURL, when set, replaces discovery on every host: the document is
	// fetched from BaseURL + "/.well-known/terraform.json" instead. It
	// points a whole run at a mirror, a private registry or a test server.
	BaseURL string
	// HostURLs replaces discovery for the hosts it names (lower case host,
	// with a port if any), as BaseURL does for all; it wins over BaseURL.
	HostURLs map[string]string
	// Timeout bounds each request, body included; 0 means DefaultTimeout.
	Timeout time.Duration
	// Retries is how many times a 429 or 5xx answer is retried; 0 means
	// DefaultRetries, a negative number none.
	Retries int
	// RetryWait is the wait before the first retry, doubled for each next
	// one; 0 means DefaultRetryWait.
	RetryWait time.Duration
	// MaxRetryWait caps every wait, Retry-After included; 0 means
	// DefaultMaxRetryWait.
	MaxRetryWait time.Duration
	// MaxBodyBytes caps each response body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// UserAgent is sent with every request; "" means "prerel".
	UserAgent string

	mu        sync.Mutex
	discovery map[string]*discovered
}

var _ Source = (*Client)(nil)

// Services are the registry endpoints a host's discovery document names,
// as absolute URLs ending in "/"; "" when the host does not offer one.
type Services struct {
	Modules   string
	Providers string
}

type discovered struct {
	once sync.Once
	svc  Services
	err  error
}

// String describes where the client looks.
func (c *Client) String() string {
	switch {
	case c.BaseURL != "":
		return "registry " + c.BaseURL
	case len(c.HostURLs) > 0:
		hosts := make([]string, 0, len(c.HostURLs))
		for h, u := range c.HostURLs {
			hosts = append(hosts, h+"="+u)
		}
		return "registry " + strings.Join(slices.Sorted(slices.Values(hosts)), ", ")
	default:
		return "registry (service discovery on each source's host)"
	}
}

// DiscoveryURL returns the URL of the discovery document for host.
func (c *Client) DiscoveryURL(host string) string {
	base := c.HostURLs[strings.ToLower(host)]
	if base == "" {
		base = c.BaseURL
	}
	if base == "" {
		return "https://" + host + "/.well-known/terraform.json"
	}
	return strings.TrimSuffix(base, "/") + "/.well-known/terraform.json"
}

// Discover returns the services of host, fetching its discovery document
// on first use.
func (c *Client) Discover(ctx context.Context, host string) (Services, error) {
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
	docURL := c.DiscoveryURL(host)
	base, err := url.Parse(docURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return Services{}, fmt.Errorf("service discovery for %s: %q is not an absolute URL", host, docURL)
	}
	body, err := c.get(ctx, docURL)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return Services{}, fmt.Errorf("service discovery for %s: %w (is %s a Terraform registry?)", host, err, host)
		}
		return Services{}, fmt.Errorf("service discovery for %s: %w", host, err)
	}
	var doc map[string]json.RawMessage
	if err := decodeJSON(body, &doc); err != nil {
		return Services{}, fmt.Errorf("service discovery for %s: %s: %w", host, docURL, err)
	}
	var svc Services
	for key, dst := range map[string]*string{"modules.v1": &svc.Modules, "providers.v1": &svc.Providers} {
		raw, ok := doc[key]
		if !ok {
			continue
		}
		var ref string
		if err := json.Unmarshal(raw, &ref); err != nil {
			return Services{}, fmt.Errorf("service discovery for %s: %s: %q is not a string", host, docURL, key)
		}
		u, err := url.Parse(ref)
		if err != nil {
			return Services{}, fmt.Errorf("service discovery for %s: %s: %q: %v", host, docURL, key, err)
		}
		abs := base.ResolveReference(u)
		if abs.Scheme != "http" && abs.Scheme != "https" {
			return Services{}, fmt.Errorf("service discovery for %s: %s: %q is %q, not an http or https URL", host, docURL, key, ref)
		}
		if !strings.HasSuffix(abs.Path, "/") {
			abs.Path += "/"
		}
		*dst = abs.String()
	}
	return svc, nil
}

// ModuleVersions lists the versions of a module:
// GET <modules.v1>NAMESPACE/NAME/SYSTEM/versions on addr.Host.
func (c *Client) ModuleVersions(ctx context.Context, pkg tfaddr.ModulePackage) (*Listing, error) {
	addr, host := pkg.ForDisplay(), pkg.Host.String()
	svc, err := c.Discover(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("module %s: %w", addr, err)
	}
	if svc.Modules == "" {
		return nil, fmt.Errorf("module %s: %s offers no module registry (no modules.v1 in %s)", addr, host, c.DiscoveryURL(host))
	}
	u := svc.Modules + pathEscape(pkg.Namespace, pkg.Name, pkg.TargetSystem) + "/versions"
	body, err := c.get(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("module %s: %w", addr, err)
	}
	vs, err := DecodeModuleVersions(body)
	if err != nil {
		return nil, fmt.Errorf("module %s: %s: %w", addr, u, err)
	}
	return &Listing{Versions: vs, From: u}, nil
}

// ProviderVersions lists the versions of a provider:
// GET <providers.v1>NAMESPACE/TYPE/versions on addr.Host.
func (c *Client) ProviderVersions(ctx context.Context, p tfaddr.Provider) (*Listing, error) {
	addr, host := p.ForDisplay(), p.Hostname.String()
	svc, err := c.Discover(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", addr, err)
	}
	if svc.Providers == "" {
		return nil, fmt.Errorf("provider %s: %s offers no provider registry (no providers.v1 in %s)", addr, host, c.DiscoveryURL(host))
	}
	u := svc.Providers + pathEscape(p.Namespace, p.Type) + "/versions"
	body, err := c.get(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %w", addr, err)
	}
	vs, warnings, err := DecodeProviderVersions(body)
	if err != nil {
		return nil, fmt.Errorf("provider %s: %s: %w", addr, u, err)
	}
	return &Listing{Versions: vs, Warnings: warnings, From: u}, nil
}

func pathEscape(parts ...string) string {
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// StatusError is a response with a status other than 200.
type StatusError struct {
	URL        string
	StatusCode int
	Status     string
	Attempts   int
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("GET %s: %s", e.URL, e.Status)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (after %d attempts)", e.Attempts)
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

// get fetches u with retries and returns the body of a 200 answer.
func (c *Client) get(ctx context.Context, u string) ([]byte, error) {
	retries := c.Retries
	switch {
	case retries == 0:
		retries = DefaultRetries
	case retries < 0:
		retries = 0
	}
	wait := c.RetryWait
	if wait <= 0 {
		wait = DefaultRetryWait
	}
	maxWait := c.MaxRetryWait
	if maxWait <= 0 {
		maxWait = DefaultMaxRetryWait
	}
	for attempt := 1; ; attempt++ {
		body, retryAfter, err := c.getOnce(ctx, u)
		var se *StatusError
		if err == nil || !errors.As(err, &se) || !retryable(se.StatusCode) || attempt > retries {
			if se != nil {
				se.Attempts = attempt
			}
			return body, err
		}
		d := wait
		if retryAfter > d {
			d = retryAfter
		}
		if d > maxWait {
			d = maxWait
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("GET %s: %w (while waiting to retry after %s)", u, ctx.Err(), se.Status)
		case <-t.C:
		}
		wait *= 2
	}
}

func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500 && code <= 599
}

// getOnce makes one request. For a retryable status it also returns the
// wait a Retry-After header asks for.
func (c *Client) getOnce(parent context.Context, u string) ([]byte, time.Duration, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("GET %s: %v", u, err)
	}
	ua := c.UserAgent
	if ua == "" {
		ua = "prerel"
	}
	req.Header.Set("User-Agent", ua)
	req.Header.Set("Accept", "application/json")
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, 0, transportError(parent, u, timeout, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// Drain a little so the connection can be reused.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, retryAfter(resp.Header.Get("Retry-After")), &StatusError{URL: u, StatusCode: resp.StatusCode, Status: resp.Status}
	}
	limit := c.MaxBodyBytes
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, 0, transportError(parent, u, timeout, err)
	}
	if int64(len(body)) > limit {
		return nil, 0, fmt.Errorf("GET %s: the response body is larger than the limit of %d bytes", u, limit)
	}
	return body, 0, nil
}

// transportError says why a request got no complete answer: a timeout, a
// cancelled run, or an unreachable host.
func transportError(parent context.Context, u string, timeout time.Duration, err error) error {
	var ne net.Error
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("GET %s: %w", u, parent.Err())
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("GET %s: no complete answer within the %s timeout", u, timeout)
	default:
		return fmt.Errorf("GET %s: cannot reach the registry: %v", u, unwrapURLError(err))
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
	return time.Duration(n) * time.Second
}
