# A proposal: a prerelease is admitted when it lies in range and the
# constraint names a prerelease, in any comparator, != included.
policy "named-prerelease" {
  rule  = "a prerelease in range when any comparator names a prerelease"
  admit = satisfies(constraint, version) && (
    !version.is_prerelease || constraint.names_prerelease
  )
}
