//go:build js

package safefile

// openNonblock is 0 under GOOS=js, which has no FIFOs and no such flag:
// the package builds there (for the playground's WebAssembly) and reads
// what the host's file system offers.
const openNonblock = 0
