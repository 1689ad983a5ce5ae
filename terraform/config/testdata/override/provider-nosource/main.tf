terraform {
  required_providers {
    aws = {
      source  = "corp/aws"
      version = "~> 5.0"
    }
  }
}
