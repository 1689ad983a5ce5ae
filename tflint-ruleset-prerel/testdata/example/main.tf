terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "6.0.0-beta1"
    }
  }
}

module "db" {
  source  = "example/db/aws"
  version = "= 2.0.0-beta.2"
}

module "eks" {
  source = "./modules/eks"
}
