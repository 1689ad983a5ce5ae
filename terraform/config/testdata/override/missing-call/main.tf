module "net" {
  source = "corp/net/aws"
}
