# lexical, in HCL: each comparator on its own. = and != compare by
# precedence; a range comparator passes a prerelease only when it names a
# prerelease of the same base, and a ~> that names a prerelease passes
# prereleases only.
policy "hcl-lexical" {
  rule = "lexical in HCL: each comparator on its own; a range passes a prerelease only if it names a prerelease of the same base"
  admit = alltrue([
    for c in constraint.comparators :
    holds(c, version) && (
      contains(["=", "!="], c.op) ||
      (version.is_prerelease
        ? c.names_prerelease && same_base(c.version, version)
        : !(c.op == "~>" && c.names_prerelease))
    )
  ])
}
