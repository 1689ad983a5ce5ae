package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/prerel/prerel/internal/printable"
)

// Timeouts and bounds of Serve's connections. A lookup's answer is
// written after the lookup, which ServeOptions.Deadline bounds.
const (
	serveReadHeaderTimeout = 10 * time.Second
	serveIdleTimeout       = 2 * time.Minute
	serveShutdownTimeout   = 5 * time.Second
	serveMaxHeaderBytes    = 64 << 10
)

// ServeOptions are what Serve serves, where and how.
type ServeOptions struct {
	// Addr is the address to listen on, HOST:PORT as given by the user
	// (port 0: any free port).
	Addr string
	// Site is the built site (CheckSite).
	Site fs.FS
	// Lookups are the handler's options for lookups (Lookups); Serve
	// sets their AllowHost (ServerHosts), Log (Stderr) and Precompress.
	Lookups Options
	// Deadline bounds a lookup's registry requests, and so the time to
	// write an answer.
	Deadline time.Duration
	// Stdout gets the line that says where the page is served; Stderr
	// the warnings and the log, each line after Prefix and ": ".
	Stdout, Stderr io.Writer
	Prefix         string
	// Started, when set, is called with the address listened on once
	// the server accepts connections.
	Started func(addr string)
}

// Serve serves opt.Site with Handler on opt.Addr until ctx is done, then
// shuts the server down, letting the requests under way finish for a
// few seconds. It warns on Stderr when other machines can reach the
// server (a host that is not loopback), and says on Stdout where it
// serves (ServeMessage). An error is a failure to listen, to serve or
// to write that line.
func Serve(ctx context.Context, opt ServeOptions) error {
	host, _, err := net.SplitHostPort(opt.Addr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opt.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", printable.String(opt.Addr), err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	switch {
	case Everywhere(host):
		fmt.Fprintf(opt.Stderr, "%s: warning: --addr %s listens on all interfaces: other machines can use the page and its registry lookups, with your registry credentials\n", opt.Prefix, printable.String(opt.Addr))
	case !Loopback(host):
		fmt.Fprintf(opt.Stderr, "%s: warning: %s is not a loopback address: other machines can use the page and its registry lookups, with your registry credentials\n", opt.Prefix, printable.String(host))
	}
	lookups := opt.Lookups
	lookups.AllowHost = ServerHosts(host, port)
	lookups.Log = opt.Stderr
	lookups.Precompress = true
	srv := &http.Server{
		Handler:           Handler(opt.Site, lookups),
		ReadHeaderTimeout: serveReadHeaderTimeout,
		WriteTimeout:      opt.Deadline + DefaultQueueWait + time.Minute,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    serveMaxHeaderBytes,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	if _, err := fmt.Fprintln(opt.Stdout, ServeMessage(opt.Addr, host, ln.Addr(), port)); err != nil {
		srv.Close()
		return err
	}
	if opt.Started != nil {
		opt.Started(ln.Addr().String())
	}
	select {
	case err := <-served:
		return fmt.Errorf("serve on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), serveShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	fmt.Fprintf(opt.Stderr, "%s: stopped\n", opt.Prefix)
	return nil
}

// ServeMessage says where the playground is served, for the address
// addr asked for, whose host is host, bound as bound on port: the URL
// to open (127.0.0.1 for all interfaces) and, when it is not what addr
// asked, what was bound.
func ServeMessage(addr, host string, bound net.Addr, port int) string {
	p := strconv.Itoa(port)
	if Everywhere(host) {
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

// BuildTemp builds the site from the module source at root (FindModule)
// into a new temporary directory, which cleanup removes (also after an
// error), saying on log, after prefix and ": ", what it builds and how
// long it took. A build stopped by ctx says so; one that finds no Go
// toolchain says to install it or build the site elsewhere.
func BuildTemp(ctx context.Context, root string, log io.Writer, prefix string) (site fs.FS, cleanup func(), err error) {
	cleanup = func() {}
	tmp, err := os.MkdirTemp("", "prerel-playground-")
	if err != nil {
		return nil, cleanup, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	fmt.Fprintf(log, "%s: building the playground from %s (GOOS=js GOARCH=wasm go build ./web/wasm)...\n", prefix, printable.String(root))
	start := time.Now()
	if err := Build(ctx, tmp, BuildOptions{ModuleDir: root}); err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			return nil, cleanup, errors.New("stopped while building the playground")
		}
		msg := err.Error()
		if strings.Contains(msg, "executable file not found") {
			msg += "; install Go, or build the site elsewhere with web/build.sh and pass --dir DIR"
		}
		return nil, cleanup, errors.New(msg)
	}
	fmt.Fprintf(log, "%s: built in %v\n", prefix, time.Since(start).Round(100*time.Millisecond))
	return os.DirFS(tmp), cleanup, nil
}
