# linear, in HCL: B(c, v) alone, prereleases on the timeline.
policy "hcl-linear" {
  rule  = "linear in HCL: every version in range by SemVer precedence, prereleases included"
  admit = satisfies(constraint, version)
}
