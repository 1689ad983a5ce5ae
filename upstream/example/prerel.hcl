# Cargo's rule for the provider: a prerelease when a comparator names a
# prerelease of the same release, as ">= 1.1.0-beta.1" does.
provider "example.com/prerel/demo" {
  policy = "cargo"
}
