module "net" {
  version = "2.0.0-beta.2"
}
