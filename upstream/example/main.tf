# The root module of docs/upstream.md's "Build and try it": one provider,
# installed from the provider mirror setup.sh writes, where versions
# 1.0.0 and 1.1.0-beta.2 are listed.
terraform {
  required_providers {
    demo = {
      source  = "example.com/prerel/demo"
      version = ">= 1.1.0-beta.1"
    }
  }
}
