variable "ami_type" {
  type = string
}
