terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
  }
}

variable "v" {
  default = "1.0.0"
}

module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}

module "same" {
  source  = "corp/same/aws"
  version = "~> 1.0"
}

module "fixed" {
  source  = "corp/fixed/aws"
  version = "1.0.0"
}

module "dyn" {
  source  = "corp/dyn/aws"
  version = var.v
}

module "app" {
  source = "./modules/app"
}

module "old" {
  source = "./modules/old"
}

variable "region" {
  type = string
}

module "regional" {
  source  = "corp/dyn/aws"
  version = "~> ${var.region}"
}
