plugin "terraform" {
  enabled = false
}

plugin "prerel" {
  enabled = true
}
