# cargo, in HCL: B(c, v), and a prerelease needs a comparator other than
# != naming a prerelease of the same base.
policy "hcl-cargo" {
  rule  = "cargo in HCL: a prerelease only when a comparator other than != names a prerelease of the same base"
  admit = satisfies(constraint, version) && (!version.is_prerelease || anytrue([
    for c in constraint.comparators : c.names_prerelease && c.op != "!=" && same_base(c.version, version)
  ]))
}
