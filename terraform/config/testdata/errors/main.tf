module "a" {
  source  = "corp/a/aws"
  version = 
}
