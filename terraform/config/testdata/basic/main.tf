terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0.0"
    }
    legacy = "~> 1.0"
  }
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.1"
}

module "local" {
  source = "./modules/local"
}

module "pinned" {
  source  = "app.terraform.io/corp/net/aws"
  version = var.net_version
}

resource "random_id" "x" {
  byte_length = 4
}

variable "net_version" {
  type    = string
  default = "1.0.0"
}
