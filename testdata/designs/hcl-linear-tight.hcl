# linear-tight, in HCL: as linear, but the upper bound of a ~> keeps the
# prereleases of that bound's release out (it reads as < X.Y.Z-0).
policy "hcl-linear-tight" {
  rule = "linear-tight in HCL: as linear, but the upper bound of ~> excludes the next release's prereleases"
  admit = satisfies(constraint, version) && (!version.is_prerelease || !anytrue([
    for b in constraint.bounds : b.bound == "upper" && same_base(b.version, version)
  ]))
}
