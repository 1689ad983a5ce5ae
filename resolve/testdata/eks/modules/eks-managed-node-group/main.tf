module "user_data" {
  source = "../_user_data"
}
