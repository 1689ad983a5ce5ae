module github.com/prerel/prerel/updaters/testdata/masterminds331

go 1.25

require github.com/Masterminds/semver/v3 v3.3.1
