# strict, in HCL: a prerelease only when an = comparator names exactly
# that version (and every comparator holds); releases by precedence.
policy "hcl-strict" {
  rule  = "strict in HCL: a prerelease only when an = comparator names exactly that version; releases by precedence"
  admit = satisfies(constraint, version) && (!version.is_prerelease || contains(constraint.comparators[*].op, "="))
}
