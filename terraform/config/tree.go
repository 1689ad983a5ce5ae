package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/hclread"
	"github.com/prerel/prerel/internal/safefile"
	"github.com/prerel/prerel/terraform/address"
)

// MaxTreeDepth bounds how deep LoadTree follows module calls: it reads
// modules at most MaxTreeDepth calls below the root.
const MaxTreeDepth = 100

// MaxTreeNodes bounds how many module instances LoadTree reads: a module
// called from several places is one instance per call path, so a few
// modules that call each other twice can make a tree of exponential size.
const MaxTreeNodes = 10000

// MaxTreeUnread bounds how many calls LoadTree lists as not read: each
// module instance read lists its calls, so that without a bound a few
// modules with many calls past MaxTreeDepth or MaxTreeNodes would make a
// list as long as their product. Past it, LoadTree stops with an error
// diagnostic, and the calls left are not listed.
const MaxTreeUnread = MaxTreeNodes

// UnreadNoManifest is the Reason of an Unread remote module call when
// there is no module manifest to find it in.
const UnreadNoManifest = "not read: run terraform init or pass --modules-dir"

// TreeOptions says where LoadTree finds modules that are not on local paths.
type TreeOptions struct {
	// ModulesDir is the directory that holds Terraform's module manifest,
	// modules.json, as `terraform init` leaves it; "" means
	// DefaultModulesDir(ROOT). A ModulesDir given here that has no
	// readable manifest is an error; the default one missing is not, and
	// the default one that is not a regular file is skipped with a
	// warning.
	ModulesDir string
	// SkipFile, when it is not nil, is asked about every configuration
	// file of every module before it is read; a file for which it returns
	// true is left out, as if it did not exist. A program that writes
	// override files of its own uses it to read the configuration as it
	// is without them.
	SkipFile func(path string) bool
	// Terraform reads the files as Terraform does: .tf and .tf.json
	// only, where by default .tofu and .tofu.json files are read too,
	// NAME.tofu in place of NAME.tf, as OpenTofu 1.8 and later read them.
	Terraform bool
}

// DataDirEnv is the environment variable that moves Terraform's data
// directory, ROOT/.terraform by default.
const DataDirEnv = "TF_DATA_DIR"

// DefaultModulesDir returns where `terraform init` leaves the module
// manifest of the root module in root: DATA/modules, where DATA is the
// directory the environment variable TF_DATA_DIR names (a relative one
// relative to root, as for Terraform run in root), or root/.terraform
// when it is not set.
func DefaultModulesDir(root string) string {
	data := os.Getenv(DataDirEnv)
	switch {
	case data == "":
		data = filepath.Join(root, ".terraform")
	case !filepath.IsAbs(data):
		data = filepath.Join(root, data)
	}
	return filepath.Join(data, "modules")
}

// Tree is a root module and every module it calls, directly or not, that
// could be read.
type Tree struct {
	// Root is the root module's node, Nodes[0].
	Root *Node
	// Nodes are every module instance read: the root first, then
	// depth-first in call-name order (a node's children right after it).
	Nodes []*Node
	// Unread are the calls whose module could not be read, in the same
	// order. Every module call of every node leads either to a child
	// node or to an Unread.
	Unread []Unread
	// ManifestFile is the path of the module manifest read, "" when none
	// was found.
	ManifestFile string
}

// Node is one module instance in the tree.
type Node struct {
	// Path is the call names from the root: nil for the root,
	// ["eks", "node_group"] for module.eks.module.node_group.
	Path []string
	// Dir is the directory read: the root as given to LoadTree, a local
	// call's path joined to its parent's Dir, or the directory the module
	// manifest records.
	Dir string
	// Module is what Load read in Dir. Nodes whose directories are the
	// same (after symbolic links) share one Module, read once.
	Module *Module
	// Call is the call in the parent module that leads here; nil for the
	// root.
	Call *ModuleCall
	// Record is the module manifest's record that Dir was taken from;
	// nil for the root and for modules read from their local path.
	Record *ModuleRecord
	// Parent is the node of the calling module; nil for the root.
	Parent *Node
	// Children are the nodes of the calls that could be read, in
	// call-name order.
	Children []*Node

	// remote is set for a module inside a remote module package: one
	// whose call, or an ancestor's, is not a local path.
	remote bool
	// canon is Dir made absolute with symbolic links resolved.
	canon string
}

// Unread is a module call whose module could not be read, and why.
type Unread struct {
	// Path is the call names from the root, ending with the call's.
	Path []string
	// Call is the module call.
	Call *ModuleCall
	// Reason says why the module was not read, starting "not read: ".
	Reason string
}

// Remote reports whether the module is part of a module package
// `terraform init` downloads (a registry, Git or HTTP source, or a local
// path inside one): its files are in Terraform's data directory, which
// init rewrites.
func (n *Node) Remote() bool { return n.remote }

// Key returns the call path as Terraform's module manifest keys it
// ("eks.node_group"; "" for the root).
func (n *Node) Key() string { return strings.Join(n.Path, ".") }

// Address returns the module address as Terraform prints it
// ("module.eks.module.node_group"), "" for the root module as in
// Terraform's own addresses.
func (n *Node) Address() string { return moduleAddress(n.Path) }

// Key returns the call path as Terraform's module manifest keys it.
func (u Unread) Key() string { return strings.Join(u.Path, ".") }

// Address returns the address the called module would have
// ("module.eks.module.node_group").
func (u Unread) Address() string { return moduleAddress(u.Path) }

func moduleAddress(p []string) string {
	if len(p) == 0 {
		return ""
	}
	return "module." + strings.Join(p, ".module.")
}

// Node returns the node whose Key is key, nil when no node has it.
func (t *Tree) Node(key string) *Node {
	for _, n := range t.Nodes {
		if n.Key() == key {
			return n
		}
	}
	return nil
}

// localPath returns a local source as a relative file path, cleaned as
// Terraform cleans it.
func localPath(source string) string {
	return filepath.FromSlash(path.Clean(strings.ReplaceAll(source, `\`, "/")))
}

// LoadTree reads the root module in root and, as `terraform init` does,
// every module it calls, directly or not:
//
//   - A call with a local source ("./", "../") is read from that path
//     relative to the calling module's directory. Inside a remote module
//     package, the directory the module manifest records for the call is
//     used when it exists, as Terraform loads it.
//   - A call with any other source (registry, Git, HTTP, ...) is read
//     from the directory the module manifest records for its key. With
//     no manifest, no record, or no such directory, the call is Unread.
//   - A call whose source is an expression, or that has no source, is
//     Unread.
//
// A call that leads back to the directory of the module making it or of
// one of its ancestors, or that lies more than MaxTreeDepth calls below
// the root, is an error diagnostic at the call and is Unread. A module
// directory called from several places is parsed once, and its
// diagnostics are reported once.
//
// The Tree is returned even when there are errors, with what could be
// read: the diagnostics of every module read are collected, and callers
// should stop on hcl.Diagnostics.HasErrors. A diagnostic about a module
// directory as a whole (one with no configuration files) gets the place
// of the call that leads there. A malformed manifest is an error
// diagnostic in the manifest's file. At most MaxConfigBytes of
// configuration files are read over the whole tree.
func LoadTree(root string, opts TreeOptions) (*Tree, hcl.Diagnostics) {
	w := &treeWalker{root: root, tree: &Tree{}, loaded: map[string]*Module{}, budget: maxConfigBytes, files: fileOptions{skip: opts.SkipFile, terraform: opts.Terraform}}
	var diags hcl.Diagnostics

	modulesDir := opts.ModulesDir
	if modulesDir == "" {
		modulesDir = DefaultModulesDir(root)
	}
	manifestFile := filepath.Join(modulesDir, ManifestFileName)
	found := true
	if opts.ModulesDir == "" {
		var fdiags hcl.Diagnostics
		found, fdiags = hclread.Find(manifestFile, "the module manifest")
		diags = append(diags, fdiags...)
	}
	if found {
		if src, d := hclread.ReadFile(manifestFile, "Cannot read the module manifest"); d != nil {
			diags = append(diags, d)
		} else {
			m, mdiags := ParseManifest(src, manifestFile)
			diags = append(diags, mdiags...)
			w.manifest = m
			w.manifestErrs = mdiags.HasErrors()
			w.tree.ManifestFile = manifestFile
		}
	}

	rootNode := &Node{Dir: root}
	rootNode.canon = canonical(root)
	mod, mdiags := load(root, &w.budget, w.files)
	rootNode.Module = mod
	diags = append(diags, mdiags...)
	w.loaded[rootNode.canon] = mod
	w.tree.Root = rootNode
	w.tree.Nodes = append(w.tree.Nodes, rootNode)
	w.diags = diags
	w.visit(rootNode)
	return w.tree, diag.Dedupe(w.diags)
}

type treeWalker struct {
	root     string
	tree     *Tree
	manifest Manifest // nil when there is none
	// manifestErrs is set when the manifest has errors.
	manifestErrs bool
	loaded       map[string]*Module
	// budget is how many bytes of configuration may still be read.
	budget int64
	// files are TreeOptions.SkipFile and TreeOptions.Terraform.
	files fileOptions
	// tooLarge is set once the tree has MaxTreeNodes instances and that
	// has been reported: the calls left are listed as not read, without
	// an error each.
	tooLarge bool
	// stopped is set once MaxTreeUnread calls are listed as not read and
	// that has been reported: the walk ends.
	stopped bool
	// diags are the diagnostics of the walk, appended once each, so that
	// reading a tree is linear in what it reports however deep it is.
	diags hcl.Diagnostics
	// canon caches canonical by directory: the instances of a module
	// share a directory, and resolving it costs a system call per
	// component of its path.
	canon map[string]string
}

// canonical is canonical(dir), resolved once per directory.
func (w *treeWalker) canonical(dir string) string {
	if c, ok := w.canon[dir]; ok {
		return c
	}
	if w.canon == nil {
		w.canon = map[string]string{}
	}
	c := canonical(dir)
	w.canon[dir] = c
	return c
}

// visit reads the modules n calls, depth-first, appending to w.diags.
func (w *treeWalker) visit(n *Node) {
	if n.Module == nil {
		return
	}
	for _, call := range n.Module.ModuleCalls {
		if w.stopped {
			return
		}
		if len(w.tree.Unread) >= MaxTreeUnread {
			w.stopped = true
			w.diags = append(w.diags, diag.ErrorAt(&call.Pos, "Module tree too large",
				fmt.Sprintf("More than %d module calls could not be read; the rest of the tree is not read.", MaxTreeUnread)))
			return
		}
		p := make([]string, len(n.Path)+1)
		copy(p, n.Path)
		p[len(n.Path)] = call.Name
		unread := func(reason string) {
			w.tree.Unread = append(w.tree.Unread, Unread{Path: p, Call: call, Reason: reason})
		}
		child := &Node{Path: p, Call: call, Parent: n}
		key := child.Key()
		switch {
		case call.SourceExpr:
			unread("not read: the source is an expression, which prerel does not evaluate")
			continue
		case call.Source == "":
			unread("not read: the module call has no source argument")
			continue
		case address.ParseModuleSource(call.Source).Kind == address.Local:
			child.remote = n.remote
			child.Dir = filepath.Join(n.Dir, localPath(call.Source))
			if n.remote {
				if rec := w.manifest[key]; rec != nil && isDir(rec.dirOf(w.root)) {
					child.Dir, child.Record = rec.dirOf(w.root), rec
				}
			}
			if why := notDir(child.Dir); why != "" {
				unread(fmt.Sprintf("not read: the directory %s %s", child.Dir, why))
				continue
			}
		default:
			child.remote = true
			if w.manifest == nil {
				unread(UnreadNoManifest)
				continue
			}
			rec := w.manifest[key]
			if rec == nil && w.manifestErrs {
				unread(fmt.Sprintf("not read: the module manifest %s has errors and no readable record for %q", w.tree.ManifestFile, key))
				continue
			}
			if rec == nil {
				unread(fmt.Sprintf("not read: the module manifest %s has no record for %q; run terraform init", w.tree.ManifestFile, key))
				continue
			}
			child.Dir, child.Record = rec.dirOf(w.root), rec
			if why := notDir(child.Dir); why != "" {
				unread(fmt.Sprintf("not read: the directory %s, which the module manifest records for %q, %s; run terraform init", child.Dir, key, why))
				continue
			}
		}
		child.canon = w.canonical(child.Dir)
		if a := ancestorIn(n, child.canon); a != nil {
			what := a.Address()
			if what == "" {
				what = "the root module"
			}
			w.diags = append(w.diags, diag.ErrorAt(&call.Pos, "Module call cycle",
				fmt.Sprintf("The call %s leads to %s, the directory of %s, which the call is inside; the modules would call each other without end.", child.Address(), child.Dir, what)))
			unread(fmt.Sprintf("not read: the call leads back to %s, the directory of %s", child.Dir, what))
			continue
		}
		if len(p) > MaxTreeDepth {
			w.diags = append(w.diags, diag.ErrorAt(&call.Pos, "Module tree too deep",
				fmt.Sprintf("%s lies %d module calls below the root; modules are followed %d calls deep at most.", child.Address(), len(p), MaxTreeDepth)))
			unread(fmt.Sprintf("not read: more than %d module calls below the root", MaxTreeDepth))
			continue
		}
		if len(w.tree.Nodes) >= MaxTreeNodes {
			if !w.tooLarge {
				w.tooLarge = true
				w.diags = append(w.diags, diag.ErrorAt(&call.Pos, "Module tree too large",
					fmt.Sprintf("%s would be module instance %d; at most %d are read.", child.Address(), len(w.tree.Nodes)+1, MaxTreeNodes)))
			}
			unread(fmt.Sprintf("not read: more than %d module instances in the tree", MaxTreeNodes))
			continue
		}
		if mod, ok := w.loaded[child.canon]; ok {
			child.Module = mod
		} else {
			mod, mdiags := load(child.Dir, &w.budget, w.files)
			child.Module = mod
			w.loaded[child.canon] = mod
			for _, d := range mdiags {
				if d.Subject == nil {
					c := *d
					c.Subject = call.Pos.Ptr()
					d = &c
				}
				w.diags = append(w.diags, d)
			}
		}
		n.Children = append(n.Children, child)
		w.tree.Nodes = append(w.tree.Nodes, child)
		w.visit(child)
	}
}

// ancestorIn returns n or the nearest ancestor of n whose directory is
// canon, nil when there is none.
func ancestorIn(n *Node, canon string) *Node {
	for a := n; a != nil; a = a.Parent {
		if a.canon == canon {
			return a
		}
	}
	return nil
}

// canonical returns dir made absolute with symbolic links resolved, or as
// clean as it can be made when that fails.
func canonical(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Clean(dir)
}

// notDir says why dir cannot be read as a module directory ("does not
// exist", "is a loop of symbolic links", "is not a directory (it is a
// regular file)", or the error), "" when it can.
func notDir(dir string) string {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return ""
	case err == nil:
		return "is not a directory (it is " + safefile.Kind(fi.Mode()) + ")"
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, syscall.ELOOP):
		return "is a loop of symbolic links"
	case errors.Is(err, syscall.ENOTDIR):
		return "does not exist (a part of its path is not a directory)"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return "cannot be read: " + err.Error()
}

func isDir(dir string) bool {
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}
