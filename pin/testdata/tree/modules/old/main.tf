module "plain" {
  source  = "corp/same/aws"
  version = "1.0.0"
}
