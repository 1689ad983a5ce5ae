variable "vpc_version" {
  type    = string
  const   = true
  default = "~> 5.1"
}

variable "major" {
  type    = string
  default = "6"
}

variable "region" {
  type = string
}

variable "big" {
  default = ["a", "b"]
}
