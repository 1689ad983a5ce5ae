default_policy = "linear"

module "same" {
  policy = "strict"
}
