# The module calls of the root module of terraform-aws-eks (v21.19.0).

module "kms" {
  source  = "terraform-aws-modules/kms/aws"
  version = "4.0.0" # Note - be mindful of Terraform/provider version compatibility between modules
}
