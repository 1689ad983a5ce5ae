module "app" {
  policy = "cargo"
}

module "db" {
  policy = "cargo"
}
