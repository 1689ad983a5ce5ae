terraform {
  required_providers {
    google = {
      source  = "hashicorp/google"
      version = "~> 3.0.0-beta.1"
    }
    cloudflare = {
      source  = "cloudflare/cloudflare"
      version = "~> 5.0.0-alpha1"
    }
    helm = {
      source  = "hashicorp/helm"
      version = ">= 2.0.0-beta.1"
    }
    ibm = {
      source  = "IBM-Cloud/ibm"
      version = ">= 1.71.3-beta1"
    }
  }
}
