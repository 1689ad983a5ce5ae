module "nett" {
  version = "1.0.0"
}
