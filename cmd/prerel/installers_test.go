package main

import (
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/elide"
)

// An --installer that is not a release is quoted once in the error,
// its start and end when it is long, with control characters escaped;
// a version number too large for a version says so.
func TestInstallerFlagErrors(t *testing.T) {
	long := "terraform@1." + strings.Repeat("9", 100<<10) + ".0"
	for _, tt := range []struct {
		arg, want string
	}{
		{"terraform@1.99999999999999999999.0", `prerel resolve: invalid argument "terraform@1.99999999999999999999.0" for "--installer" flag: ` +
			"the minor number of the version is too large: prerel knows Terraform releases 1.0.0 to 1.16.4\n"},
		{"tofu@1.2", `prerel resolve: invalid argument "tofu@1.2" for "--installer" flag: the version is not a release version MAJOR.MINOR.PATCH` + "\n"},
		{"terraform@1.15.\x1b[2J", `prerel resolve: invalid argument "terraform@1.15.\x1b[2J" for "--installer" flag: ` +
			"the version is not a release version MAJOR.MINOR.PATCH\n"},
		{long, `prerel resolve: invalid argument "` + elide.Middle(long, 200) + `" for "--installer" flag: ` +
			"the minor number of the version is too large: prerel knows Terraform releases 1.0.0 to 1.16.4\n"},
	} {
		code, stdout, stderr := runCLI(t, "", "resolve", "--installer", tt.arg, ".")
		first, _, _ := strings.Cut(stderr, "Run 'prerel resolve -h' for usage.")
		if code != exitUsage || stdout != "" || first != tt.want {
			t.Errorf("--installer %.80q: exit %d, stderr %.500q\nwant %.500q", tt.arg, code, stderr, tt.want)
		}
	}
}
