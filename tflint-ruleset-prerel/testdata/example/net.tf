module "net" {
  source  = "example/net/aws"
  version = "1.1.0"
}
