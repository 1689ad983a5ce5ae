# core-only, in HCL: a constraint that names a prerelease is refused
# (every version invalid); a version is judged by its GA release.
policy "hcl-core-only" {
  rule          = "core-only in HCL: a constraint naming a prerelease is invalid; a version is judged by its GA release"
  refuse        = constraint.names_prerelease
  refuse_reason = "prerelease version constraints are not supported: ${join(", ", [for c in constraint.comparators : c.text if c.names_prerelease])} names a prerelease"
  admit         = satisfies(constraint, version.ga)
}
