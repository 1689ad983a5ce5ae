package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCooldownFromRegistry resolves the cooldown example against a
// registry that --registry-url maps every host to: the versions from its
// versions endpoint, the dates from its extended v1 endpoint, one
// request per version, through the source the CLI configuration makes.
// The same selections as from the index file.
func TestCooldownFromRegistry(t *testing.T) {
	example := filepath.Join("..", "..", "testdata", "cooldown")
	type version struct {
		Version     string `json:"version"`
		PublishedAt string `json:"published_at,omitempty"`
	}
	var x struct {
		Modules map[string]struct {
			Modules []struct {
				Versions []version `json:"versions"`
			} `json:"modules"`
		} `json:"modules"`
		Providers map[string]struct {
			Versions []version `json:"versions"`
		} `json:"providers"`
	}
	readJSON(t, filepath.Join(example, "index.json"), &x)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/.well-known/terraform.json" {
			fmt.Fprint(w, `{"modules.v1": "/m/", "providers.v1": "/p/"}`)
			return
		}
		var vs []version
		var key string
		switch {
		case strings.HasPrefix(p, "/m/"):
			parts := strings.Split(strings.TrimPrefix(p, "/m/"), "/")
			if len(parts) == 4 {
				key = strings.Join(parts[:3], "/")
				if m, ok := x.Modules[key]; ok {
					vs = m.Modules[0].Versions
				}
			}
			if len(parts) == 4 && parts[3] == "versions" {
				json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": vs}}})
				return
			}
		case strings.HasPrefix(p, "/p/"):
			parts := strings.Split(strings.TrimPrefix(p, "/p/"), "/")
			if len(parts) == 3 {
				key = strings.Join(parts[:2], "/")
				vs = x.Providers[key].Versions
			}
			if len(parts) == 3 && parts[2] == "versions" {
				json.NewEncoder(w).Encode(map[string]any{"versions": vs})
				return
			}
		}
		for _, v := range vs {
			if strings.HasSuffix(p, "/"+v.Version) && v.PublishedAt != "" {
				json.NewEncoder(w).Encode(v)
				return
			}
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	args := []string{"resolve", "--now", "2026-03-01T12:00:00Z", "--format", "json"}
	_, fromIndex, _ := runCLI(t, "", append(args, "--index", filepath.Join(example, "index.json"), example)...)
	_, fromRegistry, stderr := runCLI(t, "", append(args, "--registry-url", srv.URL, example)...)
	sels := func(s string) string {
		var r struct {
			Items []struct {
				Name     string            `json:"name"`
				Selected *string           `json:"selected"`
				HeldBack []json.RawMessage `json:"held_back"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatalf("%v: %s\n%s", err, s, stderr)
		}
		var out []string
		for _, it := range r.Items {
			sel := "none"
			if it.Selected != nil {
				sel = *it.Selected
			}
			out = append(out, fmt.Sprintf("%s=%s/%d", it.Name, sel, len(it.HeldBack)))
		}
		return strings.Join(out, " ")
	}
	want := "db=6.10.0/0 edge=none/1 vpc=5.1.0/1 random=3.6.3/1"
	if a, b := sels(fromIndex), sels(fromRegistry); a != want || b != want {
		t.Errorf("from the index %s\nfrom the registry %s\nwant %s\n%s", a, b, want, stderr)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatal(err)
	}
}
