module github.com/prerel/prerel

go 1.25

require (
	github.com/Masterminds/semver/v3 v3.5.0
	github.com/ProtonMail/go-crypto v1.5.2
	github.com/agext/levenshtein v1.2.2
	github.com/apparentlymart/go-versions v1.0.3
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/google/renameio/v2 v2.0.2
	github.com/hashicorp/go-version v1.9.0
	github.com/hashicorp/hcl v1.0.0
	github.com/hashicorp/hcl/v2 v2.24.0
	github.com/hashicorp/terraform-config-inspect v0.0.0-20260904064934-75d64de68c31
	github.com/hashicorp/terraform-registry-address v0.4.0
	github.com/hashicorp/terraform-svchost v0.1.1
	github.com/leanovate/gopter v0.2.11
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/pflag v1.1.0
	github.com/zclconf/go-cty v1.16.3
	golang.org/x/mod v0.26.0
	golang.org/x/net v0.43.0
	golang.org/x/sys v0.35.0
	gopkg.in/yaml.v3 v3.0.1
	mvdan.cc/sh/v3 v3.12.0
)

require (
	github.com/apparentlymart/go-textseg/v15 v15.0.0 // indirect
	github.com/cloudflare/circl v1.6.3 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/mitchellh/go-wordwrap v1.0.1 // indirect
	golang.org/x/crypto v0.41.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/text v0.28.0 // indirect
	golang.org/x/tools v0.35.0 // indirect
)
