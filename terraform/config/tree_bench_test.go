package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prerel/prerel/internal/longtest"
)

// writeLargeTree writes a module tree of about size bytes of
// configuration under dir and returns its root: a root module calling
// modules local modules, each with files of at most 1 MiB holding
// required providers, variables, locals, resources and a few module calls
// (to a shared leaf module), as large configurations hold them.
func writeLargeTree(t testing.TB, dir string, size, modules int) string {
	t.Helper()
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := filepath.Join(dir, "root")
	write(filepath.Join(dir, "leaf", "main.tf"), "variable \"x\" {}\n")
	var rb strings.Builder
	for i := range modules {
		fmt.Fprintf(&rb, "module \"m%d\" {\n  source = \"../m%d\"\n}\n", i, i)
	}
	write(filepath.Join(root, "main.tf"), rb.String())
	per := size / modules
	const fileSize = 1 << 20
	for i := range modules {
		mdir := filepath.Join(dir, fmt.Sprintf("m%d", i))
		var b strings.Builder
		file := 0
		flush := func() {
			write(filepath.Join(mdir, fmt.Sprintf("f%d.tf", file)), b.String())
			b.Reset()
			file++
		}
		for j, written := 0, 0; written < per; j++ {
			before := b.Len()
			if j%20 == 0 { // MaxTreeNodes instances in 30 MiB at most
				fmt.Fprintf(&b, "module \"c%d\" {\n  source  = \"../leaf\"\n  version = \"~> 1.%d\"\n}\n", j, j%10)
			}
			fmt.Fprintf(&b, "terraform {\n  required_providers {\n    p%d = {\n      source  = \"example/p%d\"\n      version = \">= 1.0.%d\"\n    }\n  }\n}\n", j, j, j%7)
			fmt.Fprintf(&b, "variable \"v%d\" {\n  default = \"%d\"\n}\nlocals {\n  l%d = var.v%d\n}\n", j, j, j, j)
			fmt.Fprintf(&b, "resource \"p%d_thing\" \"r%d\" {\n  name = local.l%d\n}\n", j, j, j)
			written += b.Len() - before
			if b.Len() > fileSize-4096 {
				flush()
			}
		}
		if b.Len() > 0 {
			flush()
		}
	}
	return root
}

// writeDeepTree writes modules nested depth deep under dir, each calling
// the next calls times, and returns the root: a tree of calls^depth call
// paths, of which LoadTree reads MaxTreeNodes instances.
func writeDeepTree(t testing.TB, dir string, depth, calls int) string {
	t.Helper()
	var b strings.Builder
	for i := range calls {
		fmt.Fprintf(&b, "module \"c%d\" {\n  source = \"./m\"\n}\n", i)
	}
	d := dir
	for range depth {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "main.tf"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		d = filepath.Join(d, "m")
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "main.tf"), []byte("# the last module\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// benchLoad reads the tree at root b.N times, reporting time and memory;
// the tree must have at least nodes instances.
func benchLoad(b *testing.B, root string, nodes int) {
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		tree, diags := LoadTree(root, TreeOptions{})
		if len(tree.Nodes) < nodes {
			b.Fatalf("%d nodes, want %d", len(tree.Nodes), nodes)
		}
		if diags.HasErrors() && nodes < MaxTreeNodes {
			b.Fatalf("%d nodes: %v", len(tree.Nodes), diags)
		}
	}
}

// BenchmarkLoadTree reads generated trees: of many bytes (2 MiB every
// day, 30 MiB, near MaxConfigBytes, in the long run) and of many
// instances (MaxTreeNodes instances of modules 20 deep every day, 100
// deep in the long run).
func BenchmarkLoadTree(b *testing.B) {
	b.Run("bytes=2MiB", func(b *testing.B) {
		benchLoad(b, writeLargeTree(b, b.TempDir(), 2<<20, 4), 4)
	})
	b.Run("bytes=30MiB", func(b *testing.B) {
		longtest.Skip(b)
		benchLoad(b, writeLargeTree(b, b.TempDir(), 30<<20, 16), 16)
	})
	b.Run("depth=20", func(b *testing.B) {
		benchLoad(b, writeDeepTree(b, b.TempDir(), 20, 2), MaxTreeNodes)
	})
	b.Run("depth=100", func(b *testing.B) {
		longtest.Skip(b)
		benchLoad(b, writeDeepTree(b, b.TempDir(), 100, 2), MaxTreeNodes)
	})
}
