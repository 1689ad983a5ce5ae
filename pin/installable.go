package pin

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prerel/prerel/engine"
	"github.com/prerel/prerel/resolve"
	"github.com/prerel/prerel/terraform/address"
	"github.com/prerel/prerel/terraform/config"
)

// installable returns the version argument to write for a module pin of
// version, as the registry lists it: the version without a leading "v"
// (which neither installer reads as an exact pin), or as listed when
// only that form works. Each form is checked with today's module
// installers (resolve.Item.TerraformPolicy and OpenTofuPolicy) over the
// listed versions: both must select version for it. When neither form
// does, the item is Unpinned with what the installers select, and ""
// is returned.
func (pl *planner) installable(it *resolve.Item, version string) (string, error) {
	if pl.opts.Policies == nil {
		return "", fmt.Errorf("pin: Options.Policies is required to check a module pin")
	}
	listed := it.Listed()
	if listed == nil {
		listed = []string{version}
	}
	forms := []string{version}
	if bare := strings.TrimPrefix(strings.TrimPrefix(version, "v"), "V"); bare != version {
		forms = []string{bare, version}
	}
	var first []string
	for i, form := range forms {
		why, err := pl.installers(it, form, version, listed)
		if err != nil {
			return "", err
		}
		if len(why) == 0 {
			return form, nil
		}
		if i == 0 {
			first = why
		}
	}
	pl.unpinned(it, callerOf(it.Name), fmt.Sprintf("a pin of %s would not make init install it: for version = %q, %s", version, forms[0], strings.Join(first, "; ")),
		"ask the registry's publisher for a version both installers read, or choose another version")
	return "", nil
}

// installers returns what keeps today's module installers from
// selecting version for the pin form over listed, one phrase each;
// none when both select it.
func (pl *planner) installers(it *resolve.Item, form, version string, listed []string) ([]string, error) {
	var why []string
	for _, name := range []string{it.TerraformPolicy, it.OpenTofuPolicy} {
		if name == "" {
			continue
		}
		pol, found := pl.opts.Policies.Lookup(name)
		if !found {
			return nil, fmt.Errorf("pin: the policy %q, today's module installer, is not registered", name)
		}
		sel, err := engine.Select(pol, form, listed)
		switch {
		case err != nil:
			why = append(why, fmt.Sprintf("%s refuses it: %s", name, engine.ClipReason(err.Error())))
		case !sel.Found:
			why = append(why, name+" selects no version for it")
		case sel.Version != version:
			why = append(why, fmt.Sprintf("%s selects %s for it", name, sel.Version))
		}
	}
	return why, nil
}

// readDifferently says, when the options hold Terraform's reading, how
// Terraform and OpenTofu read the module call name of node differently;
// "" when they read it alike.
func (pl *planner) readDifferently(node *config.Node, name string) string {
	if pl.opts.TerraformTree == nil {
		return ""
	}
	find := func(n *config.Node) *config.ModuleCall {
		if n == nil || n.Module == nil {
			return nil
		}
		for _, c := range n.Module.ModuleCalls {
			if c.Name == name {
				return c
			}
		}
		return nil
	}
	tofu, tf := find(node), find(pl.opts.TerraformTree.Node(strings.Join(node.Path, ".")))
	describe := func(c *config.ModuleCall) string {
		if c == nil {
			return "no such call"
		}
		return fmt.Sprintf("source %q, version %q (%s%s)", c.Source, c.Version, pl.rel(c.Pos.Filename), posSuffix(c.Pos))
	}
	if tofu != nil && tf != nil && tofu.Source == tf.Source && tofu.Version == tf.Version {
		return ""
	}
	return fmt.Sprintf("Terraform and OpenTofu read this call differently (OpenTofu: %s; Terraform: %s): %s serves both, and would change what Terraform installs too",
		describe(tofu), describe(tf), FileName)
}

// providerReadDifferently says, when the options hold Terraform's
// reading, how Terraform and OpenTofu read the requirements on the
// provider at address differently; "" when they read them alike.
func (pl *planner) providerReadDifferently(addr string) string {
	if pl.opts.TerraformTree == nil {
		return ""
	}
	tofu, tf := requirements(pl.tree, addr), requirements(pl.opts.TerraformTree, addr)
	if slices.Equal(tofu, tf) {
		return ""
	}
	none := func(s []string) string {
		if len(s) == 0 {
			return "none"
		}
		return strings.Join(s, ", ")
	}
	return fmt.Sprintf("Terraform and OpenTofu read the requirements on this provider differently (OpenTofu: %s; Terraform: %s): %s serves both",
		none(tofu), none(tf), FileName)
}

// requirements lists every module's requirement on the provider at addr,
// "MODULE: CONSTRAINT", sorted.
func requirements(tree *config.Tree, addr string) []string {
	var out []string
	for _, n := range tree.Nodes {
		if n.Module == nil {
			continue
		}
		for _, p := range n.Module.Providers {
			src := p.Source
			if src == "" {
				src = "hashicorp/" + p.LocalName
			}
			a, err := address.ParseProvider(src)
			if err != nil || address.ProviderKey(a) != addr {
				continue
			}
			mod := resolve.RootModule
			if s := n.Address(); s != "" {
				mod = s
			}
			out = append(out, mod+": "+p.Constraint())
		}
	}
	slices.Sort(out)
	return out
}
