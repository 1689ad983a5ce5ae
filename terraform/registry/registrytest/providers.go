package registrytest

import (
	"archive/zip"
	"bytes"
	"crypto"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// Packages serves the provider corp/thing over the provider registry
// protocol (providers.v1): its versions, and for each one a zip package,
// a SHA256SUMS document and its detached OpenPGP signature by a key made
// for the test, which the download answer carries as the registry's
// signing key. init checks the package's checksum against the document
// and the document's signature against the key, as it does for any
// registry that is not HashiCorp's own.
type Packages struct {
	t        *testing.T
	signer   *openpgp.Entity
	armored  string
	mu       sync.Mutex
	packages map[string]*providerPackage
}

// providerPackage is one version's package, its checksum document and
// the document's signature.
type providerPackage struct {
	filename          string
	zip, sums, sigDoc []byte
	sha256            string
}

// newPackages makes the signing key of a registry that t uses.
func newPackages(t *testing.T) *Packages {
	cfg := &packet.Config{DefaultHash: crypto.SHA256, RSABits: 2048}
	signer, err := openpgp.NewEntity("prerel test registry", "", "registry@prerel.test", cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w, err := armor.Encode(&b, openpgp.PublicKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := signer.Serialize(w); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return &Packages{t: t, signer: signer, armored: b.String(), packages: map[string]*providerPackage{}}
}

// KeyID is the ID of the key that signs the packages, as the lock
// file's signing notes name it.
func (p *Packages) KeyID() string { return p.signer.PrimaryKey.KeyIdString() }

// get builds the package of version v for this platform once.
func (p *Packages) get(v string) *providerPackage {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pkg, ok := p.packages[v]; ok {
		return pkg
	}
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	h := &zip.FileHeader{Name: "terraform-provider-thing_v" + v, Method: zip.Deflate}
	h.SetMode(0o755)
	f, err := zw.CreateHeader(h)
	if err != nil {
		p.t.Error(err)
	}
	// init checks the package, it does not run the provider.
	f.Write([]byte("#!/bin/sh\nexit 1\n"))
	zw.Close()
	sum := sha256.Sum256(z.Bytes())
	pkg := &providerPackage{
		filename: fmt.Sprintf("terraform-provider-thing_%s_%s_%s.zip", v, runtime.GOOS, runtime.GOARCH),
		zip:      z.Bytes(),
		sha256:   hex.EncodeToString(sum[:]),
	}
	pkg.sums = []byte(pkg.sha256 + "  " + pkg.filename + "\n")
	var sig bytes.Buffer
	if err := openpgp.DetachSign(&sig, p.signer, bytes.NewReader(pkg.sums), nil); err != nil {
		p.t.Error(err)
	}
	pkg.sigDoc = sig.Bytes()
	p.packages[v] = pkg
	return pkg
}

// Handle adds the providers.v1 endpoints of corp/thing to mux; versions
// lists what the registry publishes and base is the server's URL.
func (p *Packages) Handle(mux *http.ServeMux, versions func() []string, base func() string) {
	mux.HandleFunc("GET /v1/providers/corp/thing/versions", func(w http.ResponseWriter, _ *http.Request) {
		var vs []any
		for _, v := range versions() {
			vs = append(vs, map[string]any{
				"version":   v,
				"protocols": []string{"5.0"},
				"platforms": []any{map[string]string{"os": runtime.GOOS, "arch": runtime.GOARCH}},
			})
		}
		json.NewEncoder(w).Encode(map[string]any{"versions": vs})
	})
	mux.HandleFunc("GET /v1/providers/corp/thing/{version}/download/{os}/{arch}", func(w http.ResponseWriter, req *http.Request) {
		v := req.PathValue("version")
		if !slices.Contains(versions(), v) || req.PathValue("os") != runtime.GOOS || req.PathValue("arch") != runtime.GOARCH {
			http.NotFound(w, req)
			return
		}
		pkg := p.get(v)
		prefix := base() + "/provider-files/" + v + "/"
		json.NewEncoder(w).Encode(map[string]any{
			"protocols":             []string{"5.0"},
			"os":                    runtime.GOOS,
			"arch":                  runtime.GOARCH,
			"filename":              pkg.filename,
			"download_url":          prefix + pkg.filename,
			"shasums_url":           prefix + "SHA256SUMS",
			"shasums_signature_url": prefix + "SHA256SUMS.sig",
			"shasum":                pkg.sha256,
			"signing_keys": map[string]any{"gpg_public_keys": []any{map[string]string{
				"key_id":      p.signer.PrimaryKey.KeyIdString(),
				"ascii_armor": p.armored,
			}}},
		})
	})
	mux.HandleFunc("GET /provider-files/{version}/{file}", func(w http.ResponseWriter, req *http.Request) {
		v := req.PathValue("version")
		if !slices.Contains(versions(), v) {
			http.NotFound(w, req)
			return
		}
		pkg := p.get(v)
		switch req.PathValue("file") {
		case pkg.filename:
			w.Write(pkg.zip)
		case "SHA256SUMS":
			w.Write(pkg.sums)
		case "SHA256SUMS.sig":
			w.Write(pkg.sigDoc)
		default:
			http.NotFound(w, req)
		}
	})
}
