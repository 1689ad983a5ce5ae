# A cooldown on every selection: the policy decides on the whole list,
# then versions younger than seven days are held back.
default_policy = "cargo"
min_age        = "7d"

module "edge" {
  policy = "fallback"
}
