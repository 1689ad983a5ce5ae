module "fixed" {
  version = "~> 1.0"
}
