# The module calls of tests/eks-managed-node-group in
# terraform-aws-modules/terraform-aws-eks (v21.19.0), their arguments
# left out.

module "eks" {
  source = "../.."
}

module "disabled_eks" {
  source = "../.."
}

module "eks_managed_node_group" {
  source = "../../modules/eks-managed-node-group"
}

module "disabled_eks_managed_node_group" {
  source = "../../modules/eks-managed-node-group"
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 6.0"
}

module "aws_vpc_cni_ipv6_pod_identity" {
  source  = "terraform-aws-modules/eks-pod-identity/aws"
  version = "~> 1.6"
}

module "ebs_kms_key" {
  source  = "terraform-aws-modules/kms/aws"
  version = "~> 4.0"
}

module "key_pair" {
  source  = "terraform-aws-modules/key-pair/aws"
  version = "~> 2.0"
}
