locals {
  eks_version = var.vpc_version
  pinned      = "= ${local.base}.0"
  base        = "${var.major}.2"
  ping        = local.pong
  pong        = local.ping
  by_region   = "~> ${var.region}"
  self        = local.self
  listed      = [for v in var.big : v]
  id          = aws_instance.x.id
}
