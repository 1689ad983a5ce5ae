// Package opentofu holds the patch that puts package gate at OpenTofu
// v1.12.6's version-selection call sites (opentofu.patch), the script
// that builds the patched tofu (build.sh OUT), and the end-to-end tests
// that run it (PREREL_LONG=1, with PREREL_PATCHED_TOFU naming the
// binary; they skip without it). See docs/upstream.md.
package opentofu
