// Package registry reads the versions of Terraform/OpenTofu modules and
// providers: from a registry over HTTP (Client, the Terraform registry
// protocol with service discovery) or from an offline index file (Index),
// both behind the Source interface. Addresses are read by package
// terraform/address, as Terraform reads them.
//
// Versions are returned as the registry wrote them, unparsed: a version no
// policy can read is not dropped here, and each policy reports it.
//
// Nothing here selects a version; package engine and the policies do.
//
// # Host blocks
//
// A Client with HostBlocks takes the services of a host from its host
// block, as Terraform does with the host blocks of its CLI
// configuration, and fetches no discovery document for it. Each service
// URL is checked as a discovery document's (an http or https URL without
// a user name or password), a relative one being resolved against
// https://HOST/.well-known/terraform.json, as Terraform resolves it; a
// service whose value is not a string is an error when it is used. The
// precedence, highest first: HostURLs, BaseURL (both given by
// --registry-url, read by URLs), HostBlocks, discovery. The lookups of a host block's
// service carry the token of the service URL's own host, as those of a
// HOST=URL mapping do (Terraform sends the block host's token).
//
// A lookup that fails because the name of its host does not resolve
// says, in UnreachableError.Hint, how to look the host up elsewhere
// (--registry-url HOST=URL, or a host block) when the host is the
// address's own, or which host block gives the URL.
//
// # Provider installation
//
// ProviderInstallation is a Source that lists a provider's versions as
// "terraform init" finds them under the provider_installation block of
// Terraform's CLI configuration: from every method whose include and
// exclude patterns (ProviderPattern, with Terraform's syntax and quirks:
// "*/*" is every provider of registry.terraform.io) take the provider,
// together: its origin registry (Direct), a directory (FilesystemMirror,
// scanned once, at most DefaultMaxMirrorEntries entries) or a server of
// the provider network mirror protocol (NetworkMirror, an https URL; its
// requests are the Client's, with its limits and its rules for tokens).
// A provider that no method takes has no version, and its lookup fails
// with ErrNoInstallationMethod, naming the block; Terraform cannot
// install it either. Without a block, the implied default applies: the
// local mirror directories that have the provider, or else its registry.
// Modules are not affected: Terraform applies the block to providers
// only. A flag that names where a host's versions come from
// (--registry-url) wins over the block for the providers of that host.
//
// # Limits
//
// A Client bounds everything a registry can make it do: each request by
// Timeout, each body by MaxBodyBytes, the retries of one request by
// Retries (at most MaxRetries) and MaxRetryTime, the retries to a host
// that keeps answering 5xx by HostErrorLimit, the redirects of one request
// by MaxRedirects, and all its lookups together by Deadline (DefaultDeadline,
// two minutes, unless set), counted from its first request. A redirect to
// anything but an http or https URL is refused.
//
// # Retries
//
// Client.get retries a 429 or 5xx answer in its own loop, not through
// github.com/hashicorp/go-retryablehttp, which was weighed and does not
// fit with less code: each attempt here has its own Timeout and its own
// redirect check, which keeps the token on its host and remembers the
// last redirect for the error, while retryablehttp sends every attempt
// with one request and one http.Client; a transport error is not retried
// here, and would be by its default policy; Retry-After is honoured for
// every retryable status, not only 429 and 503; a retry is refused, with
// a StatusError.Detail that says why, when the host has passed
// HostErrorLimit or when the wait would pass MaxRetryTime or the
// deadline, a decision that needs the wait and the request's start
// together, where retryablehttp splits them between its CheckRetry and
// Backoff hooks. Its errors ("giving up after N attempts") and its
// default logger on standard error would need an ErrorHandler and a nil
// Logger, and it brings go-cleanhttp and go-hclog. The loop is about
// seventy lines.
//
// # Output
//
// Every URL the package prints, in errors, in Listing.From and in
// Client.String, has its userinfo replaced by Redacted; RedactURL does the
// same for other text. Text from a registry that reaches an error, such as
// an HTTP status line, has its control characters escaped. Errors say
// "cannot reach the registry" only when no answer came at all: a body cut
// off, a redirect that cannot be followed and a redirect loop each have
// their own message.
//
// # Tokens
//
// A Client with Credentials sends "Authorization: Bearer TOKEN", as
// Terraform does for a private registry, under these rules:
//
//   - The token of a lookup is that of the host its discovery document is
//     fetched from: the host the address names, or, when BaseURL or
//     HostURLs maps that host to a URL, the host of that URL (lower case,
//     punycode, with its port unless it is the scheme's default). So
//     --registry-url reg.example=https://reg.example/ sends the token of
//     reg.example, and reg.example=http://127.0.0.1:8080/ that of
//     127.0.0.1:8080: a token goes only to the host it is keyed by, and a
//     mapping never carries one host's token to another.
//   - The token is sent only with requests to that same host and port:
//     never to a service URL the discovery document puts on another host
//     (not even that host's own token: a discovery document cannot direct
//     requests that carry a token), and never after a redirect leaves the
//     host, even if a later redirect comes back.
//   - It is sent only over https, or over plain http to a loopback address
//     (127.0.0.0/8, ::1, localhost).
//   - A URL with userinfo is sent with that Basic auth, and no token.
//
// A 401 or 403 error says which token was tried, by where it was found
// (never the token itself), or where tokens were looked for, and how to
// provide one: the TF_TOKEN_<host> environment variable (TokenEnvVar gives
// its name) or a credentials block in the CLI configuration or
// credentials.tfrc.json.
//
// # Index files
//
// ParseIndex takes time linear in the size of the index, skips a leading
// UTF-8 byte order mark, and names what it expected in its own words.
package registry
