module "fargate_profile" {
  source = "./modules/fargate-profile"
}

module "eks_managed_node_group" {
  source = "./modules/eks-managed-node-group"
}

module "self_managed_node_group" {
  source = "./modules/self-managed-node-group"
}
