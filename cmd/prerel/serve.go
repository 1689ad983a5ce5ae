package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/web"
)

// serveCommand is prerel serve.
var serveCommand = command{
	name:    "serve",
	args:    "[flags]",
	summary: "the playground: every policy in the browser, at http://127.0.0.1:8080",
	help:    serveHelp,
	flags:   serveFlags,
}

// serveHelp is the help text of prerel serve.
const serveHelp = `Serve prerel's playground at http://ADDR/: a page that runs every policy,
and policies written in HCL, in the browser (prerel compiled to WebAssembly),
with each verdict, explanation, selection and the timeline; its link holds
the whole view. The page also asks this server for a module's or provider's
versions (GET /api/versions?address=ADDR), which it looks up in the registry
with the registry client and flags of prerel resolve (or in --index FILE).

Only the page this server serves may use it: a request must name the
server by the host and port it listens on (127.0.0.1, localhost, [::1], or
the name given with --addr), an API request from a page of another origin
is refused, and a lookup must carry the random token of this run, which the
served page holds. Lookups go only to registry.terraform.io,
registry.opentofu.org, the hosts of --registry-url and those --allow-registry
names, and never to a host named by an IP address or to a loopback, private
or link-local address (but those --registry-url names); a failed lookup's
detail is written to stderr, not to the page. At most 4 lookups run at once
and 16 wait, each at most 20s; more are answered 503 with Retry-After.

The page is served from --dir DIR, a site web/build.sh built. Without
--dir, prerel builds it from its source into a temporary directory: run it
within prerel's source, with the Go toolchain on PATH. Ctrl-C (SIGINT) or
SIGTERM stops the server.`

// Timeouts of the server's connections. A lookup's answer is written
// after the lookup, which --registry-deadline bounds.
const (
	serveReadHeaderTimeout = 10 * time.Second
	serveIdleTimeout       = 2 * time.Minute
	serveShutdownTimeout   = 5 * time.Second
	serveMaxHeaderBytes    = 64 << 10
)

// serveStarted, when set (by tests), is called with the address the
// server listens on once it accepts connections.
var serveStarted func(addr string)

// serveFlags defines the flags of prerel serve and returns its run,
// which serves until SIGINT or SIGTERM.
func serveFlags(fs *flagSet) runFunc {
	run := serveRun(fs)
	return streamed(func(e *env, args []string) error {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return run(ctx, e, args)
	})
}

// serveRun defines the flags of prerel serve and returns the function
// that serves until ctx is done, then shuts the server down, letting the
// requests under way finish for a few seconds.
func serveRun(fs *flagSet) func(ctx context.Context, e *env, args []string) error {
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0: any free port); a host that is\nnot loopback lets other machines in")
	dir := fs.String("dir", "", "serve the site in `DIR`, as web/build.sh writes it (default: build\nit from prerel's source into a temporary directory)")
	var allow hostList
	fs.Var(&allow, "allow-registry", "also look versions up on the registry `HOST` (repeatable); by default\nonly registry.terraform.io, registry.opentofu.org and the hosts of\n--registry-url")
	var vf resolveFlags
	vf.addVersionSourceFlags(fs)
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 0 {
			return usagef("serve takes no arguments, got %q", args[0])
		}
		host, _, err := net.SplitHostPort(*addr)
		if err != nil {
			return usagef("--addr %s: %v: expected HOST:PORT, such as 127.0.0.1:8080", printable.String(*addr), err)
		}
		lookups, err := serveVersions(e, &vf, allow)
		if err != nil {
			return err
		}
		site, cleanup, err := serveSite(ctx, e, *dir)
		defer cleanup()
		if err != nil {
			return err
		}
		return serveOn(ctx, e, *addr, host, site, lookups, vf.deadline)
	}
}

// serveOn serves site on addr, whose host is host, until ctx is done,
// then shuts the server down, letting the requests under way finish for
// a few seconds. It warns when other machines can reach it, and says on
// stdout where it serves. lookups are the handler's options, whose
// AllowHost it sets; deadline bounds a lookup's registry requests.
func serveOn(ctx context.Context, e *env, addr, host string, site fs.FS, lookups web.Options, deadline time.Duration) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return failure(fmt.Errorf("listen on %s: %w", printable.String(addr), err))
	}
	port := ln.Addr().(*net.TCPAddr).Port
	everywhere := web.Everywhere(host)
	switch {
	case everywhere:
		fmt.Fprintf(e.stderr, "prerel serve: warning: --addr %s listens on all interfaces: other machines can use the page and its registry lookups, with your registry credentials\n", printable.String(addr))
	case !web.Loopback(host):
		fmt.Fprintf(e.stderr, "prerel serve: warning: %s is not a loopback address: other machines can use the page and its registry lookups, with your registry credentials\n", printable.String(host))
	}
	lookups.AllowHost = web.ServerHosts(host, port)
	lookups.Log = e.stderr
	lookups.Precompress = true
	srv := &http.Server{
		Handler:           web.Handler(site, lookups),
		ReadHeaderTimeout: serveReadHeaderTimeout,
		WriteTimeout:      deadline + web.DefaultQueueWait + time.Minute,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    serveMaxHeaderBytes,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if _, err := fmt.Fprintln(e.stdout, serveMessage(addr, host, ln.Addr(), port)); err != nil {
		srv.Close()
		return failure(err)
	}
	if serveStarted != nil {
		serveStarted(ln.Addr().String())
	}
	select {
	case err := <-served:
		return failure(fmt.Errorf("serve on %s: %w", ln.Addr(), err))
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), serveShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	fmt.Fprintln(e.stderr, "prerel serve: stopped")
	return nil
}

// hostList is the repeatable --allow-registry flag.
type hostList []string

func (l *hostList) Type() string { return "HOST" }

func (l *hostList) String() string { return strings.Join(*l, " ") }

func (l *hostList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// serveVersions returns what the flags say of the lookups: their source,
// the index or a registry, and the registry hosts a lookup may ask
// (web.Lookups).
func serveVersions(e *env, vf *resolveFlags, allow []string) (web.Options, error) {
	if vf.index != "" && (vf.urls.all != "" || len(vf.urls.hosts) > 0) {
		return web.Options{}, usagef("--index and --registry-url cannot be used together")
	}
	if vf.index != "" && len(allow) > 0 {
		return web.Options{}, usagef("--index and --allow-registry cannot be used together: the index is looked up for every host")
	}
	if vf.timeout <= 0 {
		return web.Options{}, usagef("--timeout must be positive")
	}
	for _, h := range allow {
		if _, err := web.RegistryHost(h); err != nil {
			return web.Options{}, usagef("--allow-registry %s: %v", printable.String(h), err)
		}
	}
	src, err := vf.versions(e)
	if err != nil {
		return web.Options{}, err
	}
	lookups, err := web.Lookups(src, allow)
	return lookups, usage(err)
}

// serveMessage says where the playground is served: the URL to open and,
// when it is not what --addr asked, what was bound.
func serveMessage(addr, host string, bound net.Addr, port int) string {
	p := strconv.Itoa(port)
	switch {
	case web.Everywhere(host):
		where := "all interfaces, port " + p
		if host != "" {
			where = net.JoinHostPort(host, p) + " (all interfaces)"
		}
		return fmt.Sprintf("serving the playground at http://127.0.0.1:%s/ (listening on %s, for --addr %s; Ctrl-C stops)", p, where, printable.String(addr))
	}
	url := "http://" + net.JoinHostPort(printable.String(host), p) + "/"
	if b := bound.String(); b != net.JoinHostPort(host, p) {
		return fmt.Sprintf("serving the playground at %s (listening on %s, for --addr %s; Ctrl-C stops)", url, b, printable.String(addr))
	}
	return fmt.Sprintf("serving the playground at %s (Ctrl-C stops)", url)
}

// serveSite returns the site to serve: dir, checked, or, without dir, a
// site built from prerel's source into a temporary directory, which
// cleanup removes.
func serveSite(ctx context.Context, e *env, dir string) (site fs.FS, cleanup func(), err error) {
	cleanup = func() {}
	if dir != "" {
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, cleanup, inputError(fmt.Errorf("--dir: %w", err))
		}
		if !fi.IsDir() {
			return nil, cleanup, usagef("--dir %s is not a directory", printable.String(dir))
		}
		site = os.DirFS(dir)
		if err := web.CheckSite(site); err != nil {
			return nil, cleanup, usagef("--dir %s: %v, then pass its output directory (web/dist by default)", printable.String(dir), err)
		}
		return site, cleanup, nil
	}
	root, err := web.FindModule(".")
	if err != nil {
		return nil, cleanup, usagef("no --dir, and the page cannot be built here: %v. Build the site with web/build.sh in prerel's source and pass --dir DIR (web/dist by default)", err)
	}
	tmp, err := os.MkdirTemp("", "prerel-playground-")
	if err != nil {
		return nil, cleanup, failure(err)
	}
	cleanup = func() { os.RemoveAll(tmp) }
	fmt.Fprintf(e.stderr, "prerel serve: building the playground from %s (GOOS=js GOARCH=wasm go build ./web/wasm)...\n", printable.String(root))
	start := time.Now()
	if err := web.Build(ctx, tmp, web.BuildOptions{ModuleDir: root}); err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return nil, cleanup, failure(errors.New("stopped while building the playground"))
		}
		msg := err.Error()
		if strings.Contains(msg, "executable file not found") {
			msg += "; install Go, or build the site elsewhere with web/build.sh and pass --dir DIR"
		}
		return nil, cleanup, failure(errors.New(msg))
	}
	fmt.Fprintf(e.stderr, "prerel serve: built in %v\n", time.Since(start).Round(100*time.Millisecond))
	return os.DirFS(tmp), cleanup, nil
}
