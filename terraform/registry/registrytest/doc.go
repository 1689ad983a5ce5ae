// Package registrytest is what the end-to-end tests that run the real
// terraform and tofu init share (package pin's and upstream/internal/e2e's):
// a registry over HTTPS on 127.0.0.1 (Registry) that serves the modules
// corp/NAME/aws and the signed provider corp/thing under the host Host,
// and a root module in a temporary directory whose CLI configuration
// points that host at the registry (Env), with what init installed (the
// module manifest, the lock file).
//
// init checks a provider package's checksum against the registry's
// SHA256SUMS document and the document's detached OpenPGP signature
// against the key the download answer carries, as it does for any
// registry that is not HashiCorp's own: the key is made for the test.
package registrytest
