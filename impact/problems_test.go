package impact_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/impact"
	"github.com/prerel/prerel/internal/golden"
	"github.com/prerel/prerel/report"
	"github.com/prerel/prerel/terraform/registry"
)

// TestFailingHostIsOneLine checks that the calls whose lookups a registry
// host answers 503 are one line of the report and of ProblemLines, which
// counts them, names a few and sums up the host's answers, while a call
// the host alone failed keeps its own line.
func TestFailingHostIsOneLine(t *testing.T) {
	tests := []struct {
		name   string
		dirs   [][]string // the modules each directory calls
		listed []string   // the modules the registry lists; it answers 503 for the others
		lines  int        // of ProblemLines
	}{
		{"all calls fail", [][]string{names("m", 12)}, nil, 1},
		{"some calls fail", [][]string{names("m", 8)}, []string{"m1", "m5"}, 1},
		{"one call fails", [][]string{names("m", 3)}, []string{"m0", "m2"}, 1},
		{"two directories", [][]string{names("a", 4), names("b", 4)}, []string{"b3"}, 1},
	}
	goldenDir, err := filepath.Abs("testdata/golden") // before the test changes directory
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls [][]string
			for _, mods := range tt.dirs {
				var sources []string
				for _, m := range mods {
					sources = append(sources, "corp/"+m+"/aws")
				}
				calls = append(calls, sources)
			}
			r, lines, text := problemsOf(t, fakeRegistry(t, tt.listed), calls)
			if len(lines) != tt.lines {
				t.Errorf("ProblemLines has %d lines, want %d:\n%s", len(lines), tt.lines, strings.Join(lines, "\n"))
			}
			if n := strings.Count(text, "answered 503"); n != 1 {
				t.Errorf("the report tells the host's answer %d times, want once:\n%s", n, text)
			}
			out := text + "\nProblemLines:\n" + strings.Join(lines, "\n") +
				"\n\nProblemLines, show all:\n" + strings.Join(r.ProblemLines(true), "\n") + "\n"
			golden.Check(t, filepath.Join(goldenDir, "failing-host-"+strings.ReplaceAll(tt.name, " ", "-")+".txt"), []byte(out))
		})
	}
}

// problemsOf writes a directory of module calls for each element of
// dirs, in a new working directory, one call at "~> 1.0" for each module
// source (HOST/NAMESPACE/NAME/PROVIDER or NAMESPACE/NAME/PROVIDER, the
// call named NAME), runs impact on them with client and the linear
// policy, and returns the report, its ProblemLines and its text.
func problemsOf(t *testing.T, client *registry.Client, dirs [][]string) (r *impact.Report, lines []string, text string) {
	t.Helper()
	t.Chdir(t.TempDir())
	var paths []string
	for i, sources := range dirs {
		dir := fmt.Sprintf("dir%d", i)
		var b strings.Builder
		for _, src := range sources {
			parts := strings.Split(src, "/")
			fmt.Fprintf(&b, "module %q {\n  source  = %q\n  version = \"~> 1.0\"\n}\n", parts[len(parts)-2], src)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, dir)
	}
	d, err := loadDirs(context.Background(), paths, client, catalogue.New())
	if err != nil {
		t.Fatal(err)
	}
	r, err = runImpact(d, impact.Options{Policy: mustPolicy(t, "linear"), Policies: catalogue.New()})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := impact.Render(&out, report.Text, r, cliOptions); err != nil {
		t.Fatal(err)
	}
	return r, r.ProblemLines(false), out.String()
}

// names returns n module names: prefix0, prefix1, ...
func names(prefix string, n int) []string {
	var ns []string
	for i := range n {
		ns = append(ns, fmt.Sprintf("%s%d", prefix, i))
	}
	return ns
}

// fakeRegistry returns a client of registry.test, a registry that lists
// the versions 1.0.0, 1.1.0 and 2.0.0-beta.1 of the modules corp/NAME/aws
// named in listed, and answers 503 to every other lookup, without
// retrying.
func fakeRegistry(t *testing.T, listed []string) *registry.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/terraform.json" {
			fmt.Fprint(w, `{"modules.v1": "/m/"}`)
			return
		}
		for _, m := range listed {
			if r.URL.Path == "/m/corp/"+m+"/aws/versions" {
				fmt.Fprint(w, `{"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0"}, {"version": "2.0.0-beta.1"}]}]}`)
				return
			}
		}
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, srv.Listener.Addr().String())
	}
	return &registry.Client{BaseURL: "http://registry.test", Timeout: 10 * time.Second, Retries: -1,
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dial}}}
}

// TestUnreachableHostIsOneLine checks that the calls whose lookups could
// not reach their registry host (a closed port: connection refused; a
// name that does not resolve; a host that never answers) are one line a
// host of the report and of ProblemLines, which counts them, names a
// few and says why the host could not be reached, while a call alone on
// its host, and other problems (a module the registry does not know),
// keep a line each.
func TestUnreachableHostIsOneLine(t *testing.T) {
	tests := []struct {
		name  string
		dirs  [][]string // the calls of each directory: HOST/NAME, calling HOST/corp/NAME/aws
		lines int        // of ProblemLines
		hosts int        // the unreachable hosts summed up
		// timeout is the client's: short only where no host ever
		// answers, so that the test waits for it to run out; elsewhere
		// far above what good.test takes on a loaded machine.
		timeout time.Duration
	}{
		{"connection refused", [][]string{hostCalls("down.test", "d", 12)}, 1, 1, 0},
		{"no such host", [][]string{hostCalls("gone.test", "g", 4)}, 1, 1, 0},
		{"timed out", [][]string{hostCalls("mute.test", "s", 3)}, 1, 1, 300 * time.Millisecond},
		{"two directories", [][]string{hostCalls("down.test", "a", 4), hostCalls("down.test", "b", 4)}, 1, 1, 0},
		{"one call", [][]string{{"down.test/d0", "good.test/ok0"}}, 1, 0, 0},
		{"hosts and other problems", [][]string{append(append(hostCalls("down.test", "d", 4),
			"good.test/ok0", "good.test/x0", "gone.test/g0"), append(hostCalls("gone.test", "g", 3)[1:], "good.test/x1")...)}, 4, 2, 0},
	}
	goldenDir, err := filepath.Abs("testdata/golden") // before the test changes directory
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, refused := unreachableRegistries(t, tt.timeout)
			var calls [][]string
			for _, hostNames := range tt.dirs {
				var sources []string
				for _, c := range hostNames {
					host, name, _ := strings.Cut(c, "/")
					sources = append(sources, host+"/corp/"+name+"/aws")
				}
				calls = append(calls, sources)
			}
			r, lines, text := problemsOf(t, client, calls)
			if len(lines) != tt.lines {
				t.Errorf("ProblemLines has %d lines, want %d:\n%s", len(lines), tt.lines, strings.Join(lines, "\n"))
			}
			if n := strings.Count(strings.Join(lines, "\n"), "could not be reached"); n != tt.hosts {
				t.Errorf("ProblemLines sum up %d unreachable hosts, want %d:\n%s", n, tt.hosts, strings.Join(lines, "\n"))
			}
			out := text + "\nProblemLines:\n" + strings.Join(lines, "\n") +
				"\n\nProblemLines, show all:\n" + strings.Join(r.ProblemLines(true), "\n") + "\n"
			out = strings.ReplaceAll(out, refused, "127.0.0.1:CLOSED")
			golden.Check(t, filepath.Join(goldenDir, "unreachable-host-"+strings.ReplaceAll(tt.name, " ", "-")+".txt"), []byte(out))
		})
	}
}

// hostCalls returns n calls HOST/prefix0, HOST/prefix1, ...
func hostCalls(host, prefix string, n int) []string {
	var calls []string
	for _, name := range names(prefix, n) {
		calls = append(calls, host+"/"+name)
	}
	return calls
}

// unreachableRegistries returns a client of four registry hosts, and the
// address of the closed local port it dials for one: down.test, a
// closed port, which refuses every connection; gone.test, whose name
// does not resolve; mute.test, which accepts connections and never
// answers; good.test, which lists the versions 1.0.0, 1.1.0 and
// 2.0.0-beta.1 of corp/okN/aws and answers 404 to every other lookup.
// The client does not retry; its timeout is timeout, or
// registry.DefaultTimeout for 0.
func unreachableRegistries(t *testing.T, timeout time.Duration) (*registry.Client, string) {
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/.well-known/terraform.json":
			fmt.Fprint(w, `{"modules.v1": "/m/"}`)
		case strings.HasPrefix(r.URL.Path, "/m/corp/ok"):
			fmt.Fprint(w, `{"modules": [{"versions": [{"version": "1.0.0"}, {"version": "1.1.0"}, {"version": "2.0.0-beta.1"}]}]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(good.Close)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := closed.Addr().String()
	closed.Close()
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := mute.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		mute.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		switch host, _, _ := net.SplitHostPort(addr); host {
		case "down.test":
			return d.DialContext(ctx, network, refused)
		case "mute.test":
			return d.DialContext(ctx, network, mute.Addr().String())
		case "good.test":
			return d.DialContext(ctx, network, good.Listener.Addr().String())
		}
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}}
	}
	hosts := map[string]string{}
	for _, h := range []string{"down.test", "gone.test", "mute.test", "good.test"} {
		hosts[h] = "http://" + h
	}
	return &registry.Client{HostURLs: hosts, Timeout: timeout, Retries: -1,
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dial}}}, refused
}
