# Composer's stability flags, written only in HCL.
#
# A prerelease is admitted when it lies in range (B) and is at least as
# stable as the least stable prerelease the constraint names. Stabilities,
# from the least stable: dev < alpha < beta < RC < stable, read from the
# letters that start the prerelease (alpha or a, beta or b, rc in any case,
# dev); a prerelease whose tag is none of these (1.0.0-0, 1.0.0-pre) counts
# as dev. A constraint that names no prerelease asks for stable: it admits
# no prerelease. Every comparator counts, != included, as Composer reads
# every version written in the constraint.
policy "composer-stability" {
  rule = "a prerelease in range when it is at least as stable as the least stable prerelease the constraint names: dev < alpha < beta < RC (Composer)"
  admit = satisfies(constraint, version) && (!version.is_prerelease ||
    lookup({ dev = 0, alpha = 1, a = 1, beta = 2, b = 2, rc = 3 }, lower(regex("^[A-Za-z]*", version.prerelease_text)), 0)
    >= min(4, [
      for c in constraint.comparators :
      lookup({ dev = 0, alpha = 1, a = 1, beta = 2, b = 2, rc = 3 }, lower(regex("^[A-Za-z]*", c.version.prerelease_text)), 0)
      if c.names_prerelease
    ]...)
  )
}
