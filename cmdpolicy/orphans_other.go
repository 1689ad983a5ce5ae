//go:build !linux

package cmdpolicy

import "errors"

func adoptOrphans() error { return errors.ErrUnsupported }

// killAdopted does nothing: the process adopts no orphans.
func killAdopted() {}
