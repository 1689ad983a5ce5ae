module "a" {
  source = "corp/a/gcp"
}

module "nosource" {
  version = "1.0.0"
}
