# any-pre, in HCL: B(c, v), and a prerelease needs some comparator other
# than != naming a prerelease, of any base.
policy "hcl-any-pre" {
  rule  = "any-pre in HCL: a prerelease in range when any comparator other than != names a prerelease"
  admit = satisfies(constraint, version) && (!version.is_prerelease || anytrue([
    for c in constraint.comparators : c.names_prerelease && c.op != "!="
  ]))
}
