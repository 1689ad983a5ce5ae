terraform {
  required_version = "~> 1.15.9.0"
}
