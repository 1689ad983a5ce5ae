# ga-bound, in HCL: each bound (a ~> as its two bounds) judges a
# prerelease by its GA release, except =, != and bounds that name a
# prerelease, which judge the version itself.
policy "hcl-ga-bound" {
  rule = "ga-bound in HCL: a prerelease is judged by its GA release, except by =, != and bounds that name a prerelease"
  admit = alltrue([
    for b in constraint.bounds :
    !version.is_prerelease || contains(["=", "!="], b.op) || b.names_prerelease
    ? holds(b, version)
    : holds(b, version.ga)
  ])
}
