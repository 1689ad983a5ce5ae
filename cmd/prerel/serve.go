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
	"strings"
	"syscall"
	"time"

	"github.com/prerel/prerel/internal/printable"
	"github.com/prerel/prerel/terraform/registry"
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
func serveFlags(fs *flagSet) func(*env, []string) error {
	run := serveRun(fs)
	return func(e *env, args []string) error {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return run(ctx, e, args)
	}
}

// serveRun defines the flags of prerel serve and returns the function
// that serves until ctx is done, then shuts the server down, letting the
// requests under way finish for a few seconds.
func serveRun(fs *flagSet) func(ctx context.Context, e *env, args []string) error {
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (port 0: any free port); a host that is\nnot loopback lets other machines in")
	dir := fs.String("dir", "", "serve the site in `DIR`, as web/build.sh writes it (default: build\nit from prerel's source into a temporary directory)")
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
		versions, err := serveVersions(e, &vf)
		if err != nil {
			return err
		}
		site, cleanup, err := serveSite(ctx, e, *dir)
		defer cleanup()
		if err != nil {
			return err
		}

		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			return failure(fmt.Errorf("listen on %s: %w", printable.String(*addr), err))
		}
		if !isLoopback(host) {
			fmt.Fprintf(e.stderr, "prerel serve: warning: %s is not a loopback address: other machines can use the page and its registry lookups, with your registry credentials\n", printable.String(host))
		}
		srv := &http.Server{
			Handler:           web.Handler(site, versions),
			ReadHeaderTimeout: serveReadHeaderTimeout,
			WriteTimeout:      vf.deadline + time.Minute,
			IdleTimeout:       serveIdleTimeout,
			MaxHeaderBytes:    serveMaxHeaderBytes,
		}
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()
		url := "http://" + ln.Addr().String() + "/"
		if _, err := fmt.Fprintf(e.stdout, "serving the playground at %s (Ctrl-C stops)\n", url); err != nil {
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
}

// serveVersions returns the source of each lookup the flags name: the
// index, read once, or a registry client made for each lookup (a
// Client's deadline counts from its first request), with the
// credentials read once.
func serveVersions(e *env, vf *resolveFlags) (web.Versions, error) {
	if vf.index != "" && (vf.urls.all != "" || len(vf.urls.hosts) > 0) {
		return nil, usagef("--index and --registry-url cannot be used together")
	}
	if vf.timeout <= 0 {
		return nil, usagef("--timeout must be positive")
	}
	src, err := vf.versions(e)
	if err != nil {
		return nil, err
	}
	c, ok := src.(*registry.Client)
	if !ok {
		return func() (registry.Source, error) { return src, nil }, nil
	}
	return func() (registry.Source, error) {
		return &registry.Client{
			BaseURL:     c.BaseURL,
			HostURLs:    c.HostURLs,
			Credentials: c.Credentials,
			Timeout:     c.Timeout,
			Deadline:    c.Deadline,
			Retries:     c.Retries,
		}, nil
	}, nil
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

// isLoopback reports whether host, from --addr, is a loopback address
// or localhost; "" (every interface) is not.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
