# A child module's constraint on the provider the root requires too.
terraform {
  required_providers {
    thing = {
      source  = "corp/thing"
      version = "~> 1.0.0"
    }
  }
}
