# Which prerelease policy each module call and provider is resolved with.
# Flags override this file: --policy P, --module-policy NAME=P,
# --provider-policy SOURCE=P.
default_policy = "cargo"

module "consul_next" {
  policy = "strict"
}

module "consul" {
  policy = "lexical"
}

provider "hashicorp/google" {
  policy = "strict"
}
