# fallback, in HCL: B(c, v) pairwise; in a list, the newest release in
# range, and a prerelease only when no release is in range.
policy "hcl-fallback" {
  rule   = "fallback in HCL: the newest release in range, and a prerelease only when no release fits"
  admit  = satisfies(constraint, version)
  select = "fallback"
}
