resource "time_sleep" "this" {
  create_duration = "30s"
}

variable "fargate_profiles" {
  type    = map(any)
  default = {}
}

variable "eks_managed_node_groups" {
  type    = map(any)
  default = {}
}

variable "self_managed_node_groups" {
  type    = map(any)
  default = {}
}

module "fargate_profile" {
  source   = "./modules/fargate-profile"
  for_each = var.fargate_profiles
}

module "eks_managed_node_group" {
  source   = "./modules/eks-managed-node-group"
  for_each = var.eks_managed_node_groups
}

module "self_managed_node_group" {
  source   = "./modules/self-managed-node-group"
  for_each = var.self_managed_node_groups
}
