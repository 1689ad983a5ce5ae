module "a" {
  source  = "corp/a/aws"
  version = "1.0.0"
}
