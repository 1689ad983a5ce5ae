# An example root module for `prerel resolve`. The module addresses and
# provider sources are served by index.json, built from real version
# histories (see README.md).

terraform {
  required_version = ">= 1.6.0"
}

# Release-only constraints: every policy agrees.
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 5.1"
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = ">= 20.0.0, < 21.0.0"
}

# A release candidate as the lower bound of a pessimistic constraint.
module "consul" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = "~> 1.2.0-rc1"
}

# An exact prerelease pin next to a release bound: Terraform's module
# installer excludes every prerelease of a comma-separated constraint.
module "consul_next" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = "2.0.0-rc1, >= 1.0.0"
}

# A beta as the lower bound of an open range.
module "consul_beta" {
  source  = "hashicorp/consul-k8s/kubernetes"
  version = ">= 1.0.0-beta1"
}

# A local module: read from disk, with its own requirements.
module "network" {
  source = "./modules/network"
}

# Not from a registry: listed as skipped, and not read until
# `terraform init` has installed it.
module "dns" {
  source = "git::https://example.com/terraform-dns.git?ref=v1.4.0"
}
