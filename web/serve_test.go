package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestServeMessage says where the page is served: 127.0.0.1 for all
// interfaces, the name asked for, and what was bound when it differs.
func TestServeMessage(t *testing.T) {
	tcp := func(s string) net.Addr { a, _ := net.ResolveTCPAddr("tcp", s); return a }
	tests := []struct {
		addr, host string
		bound      net.Addr
		want       string
	}{
		{":0", "", tcp("[::]:8081"), "serving the playground at http://127.0.0.1:8081/ (listening on all interfaces, port 8081, for --addr :0; Ctrl-C stops)"},
		{"0.0.0.0:0", "0.0.0.0", tcp("0.0.0.0:8081"), "serving the playground at http://127.0.0.1:8081/ (listening on 0.0.0.0:8081 (all interfaces), for --addr 0.0.0.0:0; Ctrl-C stops)"},
		{"127.0.0.1:0", "127.0.0.1", tcp("127.0.0.1:8081"), "serving the playground at http://127.0.0.1:8081/ (Ctrl-C stops)"},
		{"localhost:0", "localhost", tcp("127.0.0.1:8081"), "serving the playground at http://localhost:8081/ (listening on 127.0.0.1:8081, for --addr localhost:0; Ctrl-C stops)"},
	}
	for _, tt := range tests {
		if got := ServeMessage(tt.addr, tt.host, tt.bound, 8081); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.addr, got, tt.want)
		}
	}
}

// TestServe serves a site until its context is done, answering only by
// the names it listens on, and says where and when it stopped.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	started := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ServeOptions{Addr: "127.0.0.1:0", Site: fakeSite(), Deadline: time.Second,
			Stdout: &stdout, Stderr: &stderr, Prefix: "test", Started: func(a string) { started <- a }})
	}()
	var addr string
	select {
	case addr = <-started:
	case err := <-done:
		t.Fatalf("Serve ended before listening: %v", err)
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/", nil)
	req.Host = "rebound.example"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("another Host: %v, %v", resp, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if want := "serving the playground at http://" + addr + "/ (Ctrl-C stops)\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	if !strings.HasSuffix(stderr.String(), "test: stopped\n") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// TestServeListenError is a failure to listen, naming the address.
func TestServeListenError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = Serve(context.Background(), ServeOptions{Addr: ln.Addr().String(), Site: fakeSite(), Stdout: io.Discard, Stderr: io.Discard})
	if err == nil || !strings.HasPrefix(err.Error(), "listen on "+ln.Addr().String()+": ") {
		t.Errorf("got %v", err)
	}
}

// TestBuildTempStopped says that a build stopped by its context was
// stopped, and cleanup removes the temporary directory.
func TestBuildTempStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var log strings.Builder
	_, cleanup, err := BuildTemp(ctx, t.TempDir(), &log, "test")
	defer cleanup()
	if err == nil || err.Error() != "stopped while building the playground" {
		t.Errorf("got %v", err)
	}
	if !strings.HasPrefix(log.String(), "test: building the playground from ") {
		t.Errorf("log %q", log.String())
	}
}
