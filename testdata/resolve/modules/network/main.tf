# A local module: prerel resolve reads it as Terraform does, so its own
# module call and provider requirements count too.
variable "cidr" {
  type    = string
  default = "10.0.0.0/16"
}

terraform {
  required_providers {
    # Also required by the root module (>= 2.0.0-beta.1): Terraform
    # installs a version that meets both.
    helm = {
      source  = "hashicorp/helm"
      version = "~> 2.9"
    }
    # Required only here.
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = "~> 2.23"
    }
  }
}

# The root module calls the same module with another constraint.
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.0.0"
}
