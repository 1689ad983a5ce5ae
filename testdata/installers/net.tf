variable "net_major" {
  type    = string
  default = "2"
  const   = true
}

locals {
  net_version = "~> ${var.net_major}.0"
}

module "net" {
  source  = "example/net/aws"
  version = local.net_version
}

terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 1.0.0"
    }
  }
}
