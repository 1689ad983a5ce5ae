module "net" {
  source  = "corp/net/aws"
  version = "~> 1.0"
}

terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}
