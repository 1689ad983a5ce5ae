terraform {
  required_version = "~> 1.16.4.0"
}
