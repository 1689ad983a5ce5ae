module "net" {
  count = 2
}
