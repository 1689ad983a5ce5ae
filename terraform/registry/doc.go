// Package registry reads the versions of Terraform/OpenTofu modules and
// providers: from a registry over HTTP (Client, the Terraform registry
// protocol with service discovery) or from an offline index file (Index),
// both behind the Source interface. Addresses are read by package
// terraform/address, as Terraform reads them.
//
// Versions are returned as the registry wrote them, unparsed: a version no
// policy can read is not dropped here, and each policy reports it.
//
// Nothing here selects a version; package engine and the policies do.
package registry
