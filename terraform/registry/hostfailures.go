package registry

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/prerel/prerel/internal/plural"
	"github.com/prerel/prerel/internal/printable"
)

// HostError returns the StatusError of err when it is a server error
// (5xx) or 429 Too Many Requests from a host the client counts errors
// of: the errors a report may sum up by host with HostFailures.
func HostError(err error) (*StatusError, bool) {
	var se *StatusError
	if !errors.As(err, &se) || !retryable(se.StatusCode) || se.Host == "" {
		return nil, false
	}
	return se, true
}

// maxHostFailureDetails is how many distinct reasons not to retry
// HostFailures tells besides the host's limit of errors in a row.
const maxHostFailureDetails = 2

// HostFailures sums up in one line the lookups one host failed, given
// their errors (those HostError accepts, all of one host, in the order
// of the lookups; an error shared by several lookups may be given
// once or more): how many lookups failed and how the host answered,
// one of them as an example, the most attempts a lookup made, and why
// the last were not retried, once each:
//
//	registry.example.com answered 503 Service Unavailable to 12 lookups,
//	such as GET /v1/modules/ns/a/aws/versions; at most 4 attempts a lookup;
//	not retried once registry.example.com gave 8 server errors in a row
//
// (one line). Every text from the answers is escaped by printable.String.
func HostFailures(errs []*StatusError) string {
	if len(errs) == 0 {
		return ""
	}
	host := errs[0].Host
	var statuses, details []string
	lookups := map[string]bool{}
	attempts, limit, moreDetails := 1, 0, 0
	for _, se := range errs {
		lookups[se.URL] = true
		if st := printable.String(se.Status); !slices.Contains(statuses, st) {
			statuses = append(statuses, st)
		}
		attempts = max(attempts, se.Attempts)
		switch d := printable.String(se.Detail); {
		case se.hostLimit > 0:
			limit = max(limit, se.hostLimit)
		case d == "" || slices.Contains(details, d):
		case len(details) < maxHostFailureDetails:
			details = append(details, d)
		default:
			moreDetails++
		}
	}
	s := fmt.Sprintf("%s answered %s to %s, such as GET %s", printable.String(host), strings.Join(statuses, " or "),
		plural.Of(len(lookups), "lookup", "lookups"), urlPath(errs[0].URL))
	if attempts > 1 {
		s += fmt.Sprintf("; at most %d attempts a lookup", attempts)
	}
	if limit > 0 {
		s += fmt.Sprintf("; not retried once %s gave %d server errors in a row", printable.String(host), limit)
	}
	for _, d := range details {
		s += "; " + d
	}
	if moreDetails > 0 {
		s += fmt.Sprintf(" (and %s)", plural.Of(moreDetails, "other reason", "other reasons"))
	}
	return s
}

// urlPath is the path of a URL, escaped for a message; the URL itself
// when it has none.
func urlPath(s string) string {
	if u, err := url.Parse(s); err == nil && u.Path != "" {
		return printable.String(u.EscapedPath())
	}
	return printable.String(s)
}
