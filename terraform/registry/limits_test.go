package registry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// moduleN returns the address of the nth of several module calls on one
// host.
func moduleN(n int) tfaddr.ModulePackage {
	return tfaddr.MustParseModuleSource(fmt.Sprintf("corp/net%d/aws", n)).Package
}

// countingRegistry answers every versions request with handler and counts
// the requests.
func countingRegistry(t *testing.T, handler http.HandlerFunc) (*fakeRegistry, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	f := &fakeRegistry{Server: httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/terraform.json" {
			body(discoveryRelative)(w, r)
			return
		}
		n.Add(1)
		handler(w, r)
	}))}
	t.Cleanup(f.Close)
	return f, &n
}

func status503RetryAfter(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "3600")
	http.Error(w, "busy", http.StatusServiceUnavailable)
}

func TestClientRetriesAreCapped(t *testing.T) {
	f, n := countingRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	c := testClient(f)
	c.Retries = 1000000
	c.HostErrorLimit = -1
	_, err := c.ModuleVersions(context.Background(), netAddr)
	want := fmt.Sprintf("500 Internal Server Error (after %d attempts)", MaxRetries+1)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v, want %q", err, want)
	}
	if got := n.Load(); got != MaxRetries+1 {
		t.Errorf("%d requests, want %d", got, MaxRetries+1)
	}
}

func TestClientStopsRetryingAHostThatKeepsFailing(t *testing.T) {
	f, n := countingRegistry(t, status503RetryAfter)
	c := testClient(f)
	c.Retries = 3
	c.HostErrorLimit = 3
	ctx := context.Background()
	_, err := c.ModuleVersions(ctx, moduleN(0))
	if err == nil || !strings.Contains(err.Error(), "503 Service Unavailable (after 3 attempts); not retried: 127.0.0.1:") ||
		!strings.Contains(err.Error(), "gave 3 server errors in a row") {
		t.Fatalf("first lookup: %v", err)
	}
	for i := 1; i < 8; i++ {
		if _, err := c.ModuleVersions(ctx, moduleN(i)); err == nil || strings.Contains(err.Error(), "attempts") {
			t.Fatalf("lookup %d: %v, want one attempt", i, err)
		}
	}
	if got := n.Load(); got != 3+7 {
		t.Errorf("%d requests for 8 lookups, want 10", got)
	}
}

func TestClientHostErrorCountStartsAgainAfterAnAnswer(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	f, n := countingRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		if fail.Load() {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		body(modulesBody)(w, r)
	})
	c := testClient(f)
	c.Retries, c.HostErrorLimit = 3, 3
	ctx := context.Background()
	c.ModuleVersions(ctx, moduleN(0)) // 3 answers: the host is no longer retried
	fail.Store(false)
	if _, err := c.ModuleVersions(ctx, moduleN(1)); err != nil {
		t.Fatal(err)
	}
	fail.Store(true)
	n.Store(0)
	c.ModuleVersions(ctx, moduleN(2))
	if got := n.Load(); got != 3 {
		t.Errorf("%d requests after a good answer, want 3 (retried again)", got)
	}
}

// TestClientManyLookupsOnAFailingHostAreBounded runs 8 lookups, 4 at a
// time, against a host that answers 503 with Retry-After: 3600.
func TestClientManyLookupsOnAFailingHostAreBounded(t *testing.T) {
	f, n := countingRegistry(t, status503RetryAfter)
	c := testClient(f)
	c.MaxRetryWait = 2 * time.Millisecond
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if _, err := c.ModuleVersions(context.Background(), moduleN(i)); err == nil {
				t.Error("no error")
			}
		}()
	}
	wg.Wait()
	// Every retry follows a check that saw fewer than the limit of errors
	// in a row, so there are fewer retries than the limit.
	if got, max := n.Load(), int32(8+DefaultHostErrorLimit-1); got > max {
		t.Errorf("%d requests, want at most %d", got, max)
	}
}

func TestClientRetryTimeLimit(t *testing.T) {
	f, n := countingRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	c := testClient(f)
	c.HostErrorLimit = -1
	c.RetryWait, c.MaxRetryWait = 40*time.Millisecond, time.Hour
	c.MaxRetryTime = 100 * time.Millisecond
	// Waits of 40ms, then 80ms: the second would end past 100ms.
	_, err := c.ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "not retried: waiting 80ms more would pass the 100ms limit on one request's retries") {
		t.Fatalf("error = %v", err)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("%d requests, want 2", got)
	}
}

func TestClientDeadlineStopsRetries(t *testing.T) {
	f, n := countingRegistry(t, status503RetryAfter)
	c := testClient(f)
	c.HostErrorLimit = -1
	c.MaxRetryWait, c.MaxRetryTime = time.Hour, time.Hour
	c.Deadline = time.Second
	start := time.Now()
	_, err := c.ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "not retried: waiting 1h0m0s more would pass the 1s deadline for all registry lookups") {
		t.Fatalf("error = %v", err)
	}
	if n.Load() != 1 || time.Since(start) > 900*time.Millisecond {
		t.Errorf("%d requests in %s", n.Load(), time.Since(start))
	}
}

func TestClientDeadlineStopsAHangingServer(t *testing.T) {
	f, n := countingRegistry(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	c := testClient(f)
	c.Timeout = 10 * time.Second
	c.Deadline = 100 * time.Millisecond
	start := time.Now()
	_, err := c.ModuleVersions(context.Background(), netAddr)
	if err == nil || !strings.Contains(err.Error(), "the 100ms deadline for all registry lookups has passed") || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
	// The deadline is the Client's: a later lookup fails at once.
	before := n.Load()
	if _, err := c.ModuleVersions(context.Background(), moduleN(1)); err == nil || !strings.Contains(err.Error(), "deadline for all registry lookups has passed") {
		t.Errorf("later lookup: %v", err)
	}
	if n.Load() != before {
		t.Errorf("a request was made after the deadline")
	}
}

func TestClientCallerDeadlineIsNamedAsSuch(t *testing.T) {
	f, _ := countingRegistry(t, status503RetryAfter)
	c := testClient(f)
	c.HostErrorLimit = -1
	c.MaxRetryWait, c.MaxRetryTime = time.Hour, time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := c.ModuleVersions(ctx, netAddr)
	if err == nil || !strings.Contains(err.Error(), "would pass the caller's deadline") {
		t.Fatalf("error = %v", err)
	}
}

// The lookups a failing host fails read alike but for the module's
// address, so that a report groups them: those retried, and those made
// once the host passed its error limit.
func TestClientErrorsOfAFailingHostReadAlike(t *testing.T) {
	f, _ := countingRegistry(t, status503RetryAfter)
	c := testClient(f)
	ctx := context.Background()
	texts := map[string]int{}
	for i := range 12 {
		_, err := c.ModuleVersions(ctx, moduleN(i))
		if err == nil {
			t.Fatalf("lookup %d: no error", i)
		}
		prefix := "module " + moduleN(i).ForDisplay() + ": "
		rest, ok := strings.CutPrefix(err.Error(), prefix)
		if !ok || strings.Contains(rest, "/v1/modules/") {
			t.Fatalf("lookup %d: %v: want it to start with %q and name no URL", i, err, prefix)
		}
		texts[rest]++
	}
	if len(texts) > 2 {
		t.Errorf("12 lookups of one failing host read %d ways:\n%v", len(texts), texts)
	}
}
