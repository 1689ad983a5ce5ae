module "vpc" {
  version = "~> 5.2"
}
