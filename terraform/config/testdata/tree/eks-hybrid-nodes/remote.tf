provider "aws" {
  alias  = "remote"
  region = "us-east-1"
}

module "eks_hybrid_node_role" {
  source  = "terraform-aws-modules/eks/aws//modules/hybrid-node-role"
  version = "~> 21.0"
}

module "key_pair" {
  source  = "terraform-aws-modules/key-pair/aws"
  version = "~> 2.0"

  providers = {
    aws = aws.remote
  }

  key_name           = "hybrid-node"
  create_private_key = true
}

resource "local_file" "key_pem" {
  content  = module.key_pair.private_key_pem
  filename = "key.pem"
}

module "remote_node_vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "~> 6.0"

  providers = {
    aws = aws.remote
  }

  name = "${local.name}-remote"
  cidr = "172.16.0.0/16"
}
