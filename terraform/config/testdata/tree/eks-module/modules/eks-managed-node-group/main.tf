variable "ami_type" {
  type    = string
  default = "AL2023_x86_64_STANDARD"
}

module "user_data" {
  source = "../_user_data"

  ami_type = var.ami_type
}
