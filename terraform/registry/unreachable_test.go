package registry

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestUnreachableErrorByType checks that a lookup whose host could not
// be reached (refused, a name that does not resolve, no answer in
// time), and only such a lookup, fails with an UnreachableError naming
// the host and why, its message as before.
func TestUnreachableErrorByType(t *testing.T) {
	closed := closedAddr(t)
	silent := newFakeRegistry(t, map[string]http.HandlerFunc{
		discoveryPath: body(discoveryRelative),
		modulesPath: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		},
	})
	redirecting := newFakeRegistry(t, map[string]http.HandlerFunc{
		discoveryPath: body(discoveryRelative),
		modulesPath:   redirectTo("http://" + closed + "/gone"),
	})
	eof, _ := countingRegistry(t, rawAnswer(""))
	missing := newFakeRegistry(t, map[string]http.HandlerFunc{discoveryPath: body(discoveryRelative)})
	noSuchHost := func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "gone.test", IsNotFound: true}}
	}
	tests := []struct {
		name   string
		client *Client
		host   string // of the UnreachableError; "" for none
		cause  string
		want   string // in the message
	}{
		{"closed port", &Client{BaseURL: "http://" + closed}, closed, "connection refused", "cannot reach the registry: dial tcp " + closed},
		{"no such host", &Client{BaseURL: "http://gone.test", HTTPClient: &http.Client{Transport: &http.Transport{DialContext: noSuchHost}}},
			"gone.test", "no such host", "cannot reach the registry: dial tcp: lookup gone.test: no such host"},
		{"no answer in time", &Client{BaseURL: silent.URL, Timeout: 50 * time.Millisecond}, strings.TrimPrefix(silent.URL, "http://"), "timed out", "no complete answer within the 50ms timeout"},
		{"redirect to a closed port", testClient(redirecting), closed, "connection refused", "which cannot be reached"},
		{"connection closed without an answer", testClient(eof), "", "", "the registry closed the connection without an answer"},
		{"not found", testClient(missing), "", "", "404 Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.client.Retries = -1
			_, err := tt.client.ModuleVersions(context.Background(), netAddr)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
			var ue *UnreachableError
			switch found := errors.As(err, &ue); {
			case tt.host == "" && found:
				t.Errorf("error %q is an UnreachableError of %s", err, ue.Host)
			case tt.host != "" && !found:
				t.Errorf("error %q is not an UnreachableError", err)
			case found && (ue.Host != tt.host || ue.Cause() != tt.cause):
				t.Errorf("UnreachableError of host %q, cause %q; want %q, %q", ue.Host, ue.Cause(), tt.host, tt.cause)
			}
		})
	}
}
