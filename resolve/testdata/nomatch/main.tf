# The wish of the project's issue 36: terraform init should install
# 2.0.0-beta.1 of db, whose constraint is "~> 2.0", under cargo.

module "app" {
  source  = "corp/app/aws"
  version = ">= 1.0"
}

module "db" {
  source  = "corp/db/aws"
  version = "~> 2.0"
}
