package resolve_test

import (
	"context"
	"net"
	"net/url"
	"os"
	"syscall"
	"testing"

	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/registry"
)

// TestUnreachableFailures checks the line that sums up the lookups one
// unreachable host failed: each cause once, the lookups counted once
// each, one of them as an example.
func TestUnreachableFailures(t *testing.T) {
	refused := func(u string) *registry.UnreachableError {
		return &registry.UnreachableError{URL: u, Host: "registry.example.com", Err: &url.Error{Op: "Get", URL: u,
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}}
	}
	timedOut := func(u string) *registry.UnreachableError {
		return &registry.UnreachableError{URL: u, Host: "registry.example.com", Err: &url.Error{Op: "Get", URL: u, Err: context.DeadlineExceeded}}
	}
	const (
		disc = "https://registry.example.com/.well-known/terraform.json"
		a    = "https://registry.example.com/v1/modules/ns/a/aws/versions"
		b    = "https://registry.example.com/v1/modules/ns/b/aws/versions"
	)
	tests := []struct {
		name string
		errs []*registry.UnreachableError
		want string
	}{
		{"none", nil, ""},
		{"one lookup shared", []*registry.UnreachableError{refused(disc), refused(disc), refused(disc)},
			"registry.example.com could not be reached (connection refused): GET /.well-known/terraform.json"},
		{"several lookups", []*registry.UnreachableError{refused(a), refused(b)},
			"registry.example.com could not be reached (connection refused) by 2 lookups, such as GET /v1/modules/ns/a/aws/versions"},
		{"several causes", []*registry.UnreachableError{timedOut(a), refused(b), refused(a)},
			"registry.example.com could not be reached (timed out or connection refused) by 2 lookups, such as GET /v1/modules/ns/a/aws/versions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolve.UnreachableFailures(tt.errs); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
