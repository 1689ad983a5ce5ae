# Terraform reads this file; OpenTofu reads app.tofu in its place.
module "app" {
  source  = "example/app/aws"
  version = ">= 1.2.3"
}
