module "a" {
  source = "../a"
}

module "root" {
  source = "../.."
}
