# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.
# (Hashes are left out of this example.)

provider "registry.terraform.io/cloudflare/cloudflare" {
  version     = "5.0.0-rc1"
  constraints = "~> 5.0.0-alpha1"
}

provider "registry.terraform.io/hashicorp/azurerm" {
  version     = "3.116.0"
  constraints = "~> 3.0"
}

provider "registry.terraform.io/hashicorp/google" {
  version     = "3.0.0-beta.1"
  constraints = "~> 3.0.0-beta.1"
}

provider "registry.terraform.io/hashicorp/helm" {
  version     = "3.0.0-pre2"
  constraints = ">= 2.0.0-beta.1"
}

provider "registry.terraform.io/hashicorp/kubernetes" {
  version     = "2.23.0"
  constraints = "~> 2.23"
}
