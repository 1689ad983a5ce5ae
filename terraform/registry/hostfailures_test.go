package registry

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// HostFailures tells each lookup once, each status and reason once, the
// limit of errors in a row once, and escapes what the host sent.
func TestHostFailures(t *testing.T) {
	const host = "registry.example.com"
	errs := []*StatusError{
		{URL: "https://" + host + "/v1/modules/ns/a/aws/versions", Host: host, StatusCode: 503, Status: "503 Service Unavailable", Attempts: 4},
		{URL: "https://" + host + "/v1/modules/ns/b/aws/versions", Host: host, StatusCode: 503, Status: "503 Service Unavailable", Attempts: 3,
			Detail: "not retried: " + host + " gave 8 server errors in a row", hostLimit: 8},
		{URL: "https://" + host + "/v1/modules/ns/c/aws/versions", Host: host, StatusCode: 502, Status: "502 \x1b[31mBad\x1b[0m", Attempts: 1,
			Detail: "not retried: " + host + " gave 8 server errors in a row", hostLimit: 8},
		{URL: "https://" + host + "/v1/modules/ns/c/aws/versions", Host: host, StatusCode: 502, Status: "502 \x1b[31mBad\x1b[0m", Attempts: 1,
			Detail: "not retried: " + host + " gave 8 server errors in a row", hostLimit: 8},
	}
	for i := 0; i < 4; i++ {
		errs = append(errs, &StatusError{URL: fmt.Sprintf("https://%s/v1/providers/ns/p%d/versions", host, i), Host: host, StatusCode: 429,
			Status: "429 Too Many Requests", Attempts: 2, Detail: fmt.Sprintf("not retried: waiting %ds more would pass the caller's deadline", i+1)})
	}
	got := HostFailures(errs)
	want := host + ` answered 503 Service Unavailable or 502 \x1b[31mBad\x1b[0m or 429 Too Many Requests to 7 lookups,` +
		` such as GET /v1/modules/ns/a/aws/versions; at most 4 attempts a lookup; not retried once ` + host + ` gave 8 server errors in a row;` +
		` not retried: waiting 1s more would pass the caller's deadline; not retried: waiting 2s more would pass the caller's deadline (and 2 other reasons)`
	if got != want {
		t.Errorf("HostFailures:\n got  %s\n want %s", got, want)
	}
	if HostFailures(nil) != "" {
		t.Error("HostFailures of no error is not empty")
	}
}

// HostError accepts the server errors and 429s of a host, through the
// errors that wrap them, and nothing else.
func TestHostError(t *testing.T) {
	f, _ := countingRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	c := testClient(f)
	c.Retries = -1
	_, err := c.ModuleVersions(context.Background(), moduleN(0))
	se, ok := HostError(err)
	if !ok || se.StatusCode != 503 || se.Host == "" || !strings.Contains(HostFailures([]*StatusError{se}), se.Host+" answered 503 Service Unavailable to 1 lookup, such as GET /") {
		t.Errorf("HostError(%v) = %v, %v", err, se, ok)
	}
	for _, err := range []error{nil, fmt.Errorf("x: %w", &StatusError{StatusCode: 404, Host: "h"}), &StatusError{StatusCode: 503}} {
		if _, ok := HostError(err); ok {
			t.Errorf("HostError(%v) accepts it", err)
		}
	}
}
