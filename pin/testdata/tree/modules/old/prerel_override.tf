# Written by prerel (prerel pin).
module "plain" {
  version = "1.1.0"
}
