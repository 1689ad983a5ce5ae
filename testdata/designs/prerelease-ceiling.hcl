# A prerelease only below a ceiling that names one, written only in HCL.
#
# A release is admitted when it lies in range (B). A prerelease is admitted
# when it lies in range and some < or <= comparator names a prerelease of
# the same MAJOR.MINOR.PATCH: the ceiling says which prereleases of the
# coming release are wanted, up to which one. A floor that names a
# prerelease (>=, >, the lower bound of ~>) admits none.
policy "prerelease-ceiling" {
  rule = "a prerelease only when a < or <= comparator names a prerelease of its base, and it lies below that ceiling"
  admit = satisfies(constraint, version) && (!version.is_prerelease || anytrue([
    for c in constraint.comparators :
    contains(["<", "<="], c.op) && c.names_prerelease && same_base(c.version, version)
  ]))
}
