module "a" {
  source = "./modules/m"
}

module "b" {
  source = "./modules/m"
}
