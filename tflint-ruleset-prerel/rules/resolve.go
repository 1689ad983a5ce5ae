package rules

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/catalogue"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/resolve/policyconfig"
	"github.com/prerel/prerel/terraform/registry"
)

// sourceConfig is the part of a rule's configuration that says where
// versions come from.
type sourceConfig struct {
	// Index is an index file (prerel resolve --index), relative to the
	// root module's directory unless absolute.
	Index string `hclext:"index,optional"`
	// Registry is a registry's base URL (prerel resolve --registry-url);
	// "default" asks each module's and provider's own host, as init does.
	Registry string `hclext:"registry,optional"`
}

// Bounds of a lookup against a registry: each request, and the run.
const (
	registryTimeout  = 10 * time.Second
	registryDeadline = 60 * time.Second
)

// source returns the versions source the configuration names; nil when
// it names none.
func (c sourceConfig) source(rt *root) (registry.Source, error) {
	switch {
	case c.Index != "" && c.Registry != "":
		return nil, errors.New("prerel: index and registry cannot be used together")
	case c.Index != "":
		path := c.Index
		if !filepath.IsAbs(path) {
			path = filepath.Join(rt.dir, path)
		}
		x, err := registry.LoadIndex(path)
		if err != nil {
			return nil, fmt.Errorf("prerel: %w", err)
		}
		return x, nil
	case c.Registry != "":
		cl := &registry.Client{Timeout: registryTimeout, Deadline: registryDeadline}
		if c.Registry != "default" {
			if _, err := registry.ParseBaseURL(c.Registry); err != nil {
				return nil, fmt.Errorf("prerel: registry: %w", err)
			}
			cl.BaseURL = c.Registry
		}
		return cl, nil
	}
	return nil, nil
}

// resolveRoot resolves the root module's tree as prerel resolve does,
// with the policies of its prerel.hcl, versions from src, and prerel
// pin's own files left out (each item shows its pin, Item.Pinned), as
// pin does. Today's installers are those root.installers finds.
func resolveRoot(rt *root, src registry.Source, skip func(string) bool) (*resolve.Report, *policyconfig.Config, error) {
	tf, tofu, err := rt.installers()
	if err != nil {
		return nil, nil, err
	}
	cfg, diags := policyconfig.LoadDir(catalogue.New(), rt.dir)
	if diags.HasErrors() {
		return nil, nil, rt.diagError(diags)
	}
	ctx, cancel := context.WithTimeout(context.Background(), registryDeadline+registryTimeout)
	defer cancel()
	rep, err := resolve.Run(ctx, resolve.Options{
		Dir: rt.dir, Config: cfg, Versions: src, Policies: cfg.Registry(), SkipFile: skip,
		Terraform: tf, OpenTofu: tofu,
	})
	var ds hcl.Diagnostics
	if errors.As(err, &ds) {
		return nil, nil, rt.diagError(ds)
	} else if err != nil {
		return nil, nil, fmt.Errorf("prerel: %w", err)
	}
	return rep, cfg, nil
}

// itemRange returns the place of an item of a report (resolve prints it
// relative to the root directory), as tflint names it.
func (rt *root) itemRange(pos string) (hcl.Range, bool) {
	file, line, ok := parsePos(pos)
	if !ok {
		return hcl.Range{}, false
	}
	return rt.fileRange(file, line), true
}
