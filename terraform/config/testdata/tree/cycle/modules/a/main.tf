module "b" {
  source = "../b"
}

module "self" {
  source = "./"
}
