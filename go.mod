module github.com/prerel/prerel

go 1.24.0

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/apparentlymart/go-versions v1.0.3 // indirect
	github.com/hashicorp/go-version v1.9.0 // indirect
	github.com/leanovate/gopter v0.2.11 // indirect
)
