variable "name" {
  type = string
}

module "kms" {
  source  = "terraform-aws-modules/kms/aws"
  version = "4.0.0"

  description = "EKS ${var.name} cluster encryption key"
}
