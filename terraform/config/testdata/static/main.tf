module "literal" {
  source  = "corp/literal/aws"
  version = "1.2.3"
}

module "var_const" {
  source  = "corp/vpc/aws"
  version = var.vpc_version
}

module "local_from_var" {
  source  = "corp/eks/aws"
  version = local.eks_version
}

module "local_from_local" {
  source  = "corp/pinned/aws"
  version = local.pinned
}

module "function" {
  source  = "corp/fn/aws"
  version = format("~> %s.0", var.major)
}

module "cycle" {
  source  = "corp/cycle/aws"
  version = local.ping
}

module "self" {
  source  = "corp/self/aws"
  version = local.self
}

module "no_default" {
  source  = "corp/region/aws"
  version = local.by_region
}

module "resource" {
  source  = "corp/res/aws"
  version = local.id
}

module "path" {
  source  = "corp/path/aws"
  version = "${path.module}/x"
}

module "undeclared" {
  source  = "corp/undeclared/aws"
  version = var.nope
}

module "not_string" {
  source  = "corp/list/aws"
  version = var.big
}

module "for" {
  source  = "corp/for/aws"
  version = local.listed[0]
}

module "wide" {
  source  = "corp/wide/aws"
  version = format("%0999999s", var.major)
}

module "unknown_function" {
  source  = "corp/fn2/aws"
  version = file("${var.major}.txt")
}
