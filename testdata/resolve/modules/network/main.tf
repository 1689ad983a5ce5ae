# A local module: prerel resolve lists it as skipped.
variable "cidr" {
  type    = string
  default = "10.0.0.0/16"
}
