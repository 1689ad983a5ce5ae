default_policy = "cargo"

module "gone" {
  policy = "strict"
}
