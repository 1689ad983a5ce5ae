# A configuration whose providers come from where the CLI configuration
# cli.tfrc says: hashicorp/local from the filesystem mirror in mirror/,
# and hashicorp/aws from nowhere.
terraform {
  required_providers {
    local = {
      source  = "hashicorp/local"
      version = ">= 2.5.0-beta1"
    }
    aws = {
      source = "hashicorp/aws"
    }
  }
}
