module "a" {
  source = "./modules/a"
}
