terraform {
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      version               = "6.0.0-beta1"
      configuration_aliases = [aws.east, aws.west]
    }
  }
}
