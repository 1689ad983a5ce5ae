package registrytest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/terraform/registry"
)

// Host is the registry host of the tests: a host block of the CLI
// configuration points it at the local server, so that no name is
// looked up.
const Host = "registry.prerel.test"

// Provider is the provider the registry serves.
const Provider = Host + "/corp/thing"

// ModuleSource is the source address of the module corp/NAME/aws.
func ModuleSource(name string) string { return Host + "/corp/" + name + "/aws" }

// Registry is a registry over HTTPS on 127.0.0.1: modules corp/NAME/aws
// with their versions and contents, and the provider corp/thing. It is
// also the registry.Source of resolve.Run.
type Registry struct {
	srv       *httptest.Server
	packages  *Packages
	mu        sync.Mutex
	modules   map[string][]string            // NAME → versions
	contents  map[string]func(string) string // NAME → main.tf of a version
	providers []string
}

// New starts a registry that t closes.
func New(t *testing.T) *Registry {
	r := &Registry{modules: map[string][]string{}, contents: map[string]func(string) string{}, packages: newPackages(t)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"modules.v1": "/v1/modules/", "providers.v1": "/v1/providers/"}`)
	})
	r.packages.Handle(mux, r.providerVersions, func() string { return r.srv.URL })
	mux.HandleFunc("GET /v1/modules/corp/{name}/aws/versions", func(w http.ResponseWriter, req *http.Request) {
		vs, ok := r.versions(req.PathValue("name"))
		if !ok {
			http.NotFound(w, req)
			return
		}
		var list []map[string]string
		for _, v := range vs {
			list = append(list, map[string]string{"version": v})
		}
		json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": list}}})
	})
	mux.HandleFunc("GET /v1/modules/corp/{name}/aws/{version}/download", func(w http.ResponseWriter, req *http.Request) {
		name, v := req.PathValue("name"), req.PathValue("version")
		if vs, _ := r.versions(name); !slices.Contains(vs, v) {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("X-Terraform-Get", r.srv.URL+"/archives/"+name+"/"+v+".tar.gz")
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /archives/{name}/{file}", func(w http.ResponseWriter, req *http.Request) {
		name, v := req.PathValue("name"), strings.TrimSuffix(req.PathValue("file"), ".tar.gz")
		r.mu.Lock()
		content := r.contents[name]
		r.mu.Unlock()
		main := fmt.Sprintf("output \"version\" {\n  value = %q\n}\n", v)
		if content != nil {
			main = content(v)
		}
		w.Write(archive(t, main))
	})
	r.srv = httptest.NewTLSServer(mux)
	t.Cleanup(r.srv.Close)
	return r
}

// URL is the registry's base URL.
func (r *Registry) URL() string { return r.srv.URL }

// KeyID is the ID of the key that signs the provider's packages, as the
// lock file's signing notes name it.
func (r *Registry) KeyID() string { return r.packages.KeyID() }

func (r *Registry) versions(name string) ([]string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	vs, ok := r.modules[name]
	return slices.Clone(vs), ok
}

func (r *Registry) providerVersions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.providers)
}

// Module lists the module corp/NAME/aws with versions.
func (r *Registry) Module(name string, versions ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.modules[name] = versions
}

// Publish adds version v to the module corp/NAME/aws.
func (r *Registry) Publish(name, v string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.modules[name] = append(r.modules[name], v)
}

// Content makes main.tf of each version of corp/NAME/aws what f says;
// by default it is one output, the version.
func (r *Registry) Content(name string, f func(version string) string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.contents[name] = f
}

// Providers lists versions of the provider corp/thing.
func (r *Registry) Providers(versions ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.providers = versions
}

// ModuleVersions and ProviderVersions make r the registry.Source of
// resolve.Run.
func (r *Registry) ModuleVersions(_ context.Context, pkg tfaddr.ModulePackage) (*registry.Listing, error) {
	name := strings.TrimSuffix(strings.TrimPrefix(pkg.String(), Host+"/corp/"), "/aws")
	vs, ok := r.versions(name)
	if !ok || pkg.String() != ModuleSource(name) {
		return nil, fmt.Errorf("%s: %w", pkg, registry.ErrNotFound)
	}
	return &registry.Listing{Versions: vs, From: r.srv.URL}, nil
}

// ProviderVersions: see ModuleVersions.
func (r *Registry) ProviderVersions(_ context.Context, p tfaddr.Provider) (*registry.Listing, error) {
	vs := r.providerVersions()
	if p.String() != Provider || len(vs) == 0 {
		return nil, fmt.Errorf("%s: %w", p, registry.ErrNotFound)
	}
	return &registry.Listing{Versions: vs, From: r.srv.URL}, nil
}

func (r *Registry) String() string { return "the test registry" }

// archive returns a .tar.gz holding main.tf.
func archive(t *testing.T, mainTF string) []byte {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: "main.tf", Mode: 0o644, Size: int64(len(mainTF)), ModTime: time.Unix(0, 0)}); err != nil {
		t.Error(err)
	}
	tw.Write([]byte(mainTF))
	tw.Close()
	gz.Close()
	return b.Bytes()
}
