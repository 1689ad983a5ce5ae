# Cargo's rule for this one call: a prerelease is admitted when a
# comparator names a prerelease of the same version.
module "example" {
  policy = "cargo"
}
