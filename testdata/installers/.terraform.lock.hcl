provider "registry.terraform.io/hashicorp/aws" {
  version     = "2.0.0-beta1"
  constraints = ">= 1.0.0"
}
