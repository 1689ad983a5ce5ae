module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}
