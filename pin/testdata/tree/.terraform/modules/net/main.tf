module "inner" {
  source  = "corp/inner/aws"
  version = "~> 1.0"
}
