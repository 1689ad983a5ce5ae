default_policy = "linear"

module "b.net" {
  policy = "strict"
}
