package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/prerel/prerel/internal/diag"
	"github.com/prerel/prerel/internal/safefile"
)

// treeSummary renders what LoadTree read: one line per node (its
// address, the directory relative to base, where the directory came from
// and the providers the module requires), then one per unread call.
func treeSummary(t *testing.T, tree *Tree, base string) string {
	t.Helper()
	rel := func(path string) string {
		r, err := filepath.Rel(base, path)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	var b strings.Builder
	for _, n := range tree.Nodes {
		from := "disk"
		if n.Record != nil {
			from = "manifest"
			if n.Record.Version != "" {
				from += " " + n.Record.Version
			}
		}
		addr := n.Address()
		if addr == "" {
			addr = "(root)"
		}
		fmt.Fprintf(&b, "%s dir=%s from=%s\n", addr, rel(n.Dir), from)
		for _, p := range n.Module.Providers {
			fmt.Fprintf(&b, "  provider %s %s %q\n", p.LocalName, p.Source, p.Constraint())
		}
	}
	for _, u := range tree.Unread {
		reason := strings.ReplaceAll(u.Reason, base+string(filepath.Separator), "")
		fmt.Fprintf(&b, "unread %s at %s:%d: %s\n", u.Address(), rel(u.Call.Pos.Filename), u.Call.Pos.Start.Line, filepath.ToSlash(reason))
	}
	return b.String()
}

// checkTree checks what holds for every tree: the root comes first, the
// nodes are in depth-first call-name order with consistent parents,
// children, paths and calls, and every call of every node leads either
// to a child or to an Unread.
func checkTree(t *testing.T, tree *Tree) {
	t.Helper()
	if tree.Root == nil || len(tree.Nodes) == 0 || tree.Nodes[0] != tree.Root || tree.Root.Path != nil ||
		tree.Root.Call != nil || tree.Root.Parent != nil || tree.Root.Key() != "" || tree.Root.Address() != "" {
		t.Fatalf("bad root: %+v", tree.Root)
	}
	var order []*Node
	var walk func(n *Node)
	walk = func(n *Node) {
		order = append(order, n)
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(tree.Root)
	if len(order) != len(tree.Nodes) {
		t.Fatalf("%d nodes reachable from the root, %d in Nodes", len(order), len(tree.Nodes))
	}
	unread := map[string]bool{}
	for _, u := range tree.Unread {
		unread[u.Key()] = true
		if !strings.HasPrefix(u.Reason, "not read: ") || u.Call == nil || u.Call.Name != u.Path[len(u.Path)-1] {
			t.Errorf("bad unread %+v", u)
		}
	}
	for i, n := range tree.Nodes {
		if order[i] != n {
			t.Fatalf("Nodes[%d] is %s, want %s in depth-first order", i, n.Address(), order[i].Address())
		}
		if tree.Node(n.Key()) != n {
			t.Errorf("Node(%q) does not find it", n.Key())
		}
		children := map[string]bool{}
		for _, c := range n.Children {
			if c.Parent != n || c.Call == nil || len(c.Path) != len(n.Path)+1 || c.Path[len(n.Path)] != c.Call.Name ||
				strings.Join(c.Path[:len(n.Path)], ".") != n.Key() {
				t.Errorf("bad child %s of %s", c.Address(), n.Address())
			}
			children[c.Key()] = true
		}
		for _, c := range n.Module.ModuleCalls {
			key := strings.TrimPrefix(n.Key()+"."+c.Name, ".")
			if children[key] == unread[key] {
				t.Errorf("call %s: child %v, unread %v", key, children[key], unread[key])
			}
		}
	}
}

func TestLoadTree(t *testing.T) {
	hybridModules := filepath.Join("testdata", "tree", "eks-hybrid-nodes", ".terraform", "modules")
	eksHybridNodes := `(root) dir=. from=disk
  provider aws hashicorp/aws ">= 6.28"
  provider helm hashicorp/helm ">= 3.0"
  provider http hashicorp/http ">= 3.4"
  provider local hashicorp/local ">= 2.5"
  provider tls hashicorp/tls ">= 4.0"
module.eks dir=.terraform/modules/eks from=manifest 21.19.0
  provider aws hashicorp/aws ">= 6.28"
  provider time hashicorp/time ">= 0.9"
  provider tls hashicorp/tls ">= 4.0"
module.eks.module.eks_managed_node_group dir=.terraform/modules/eks/modules/eks-managed-node-group from=manifest
  provider aws hashicorp/aws ">= 6.28"
module.eks.module.eks_managed_node_group.module.user_data dir=.terraform/modules/eks/modules/_user_data from=manifest
  provider cloudinit hashicorp/cloudinit ">= 2.0"
  provider null hashicorp/null ">= 3.0"
module.eks.module.fargate_profile dir=.terraform/modules/eks/modules/fargate-profile from=manifest
  provider aws hashicorp/aws ">= 6.28"
module.eks.module.kms dir=.terraform/modules/eks.kms from=manifest 4.0.0
  provider aws hashicorp/aws ">= 6.0"
module.eks.module.self_managed_node_group dir=.terraform/modules/eks/modules/self-managed-node-group from=manifest
  provider aws hashicorp/aws ">= 6.28"
module.eks.module.self_managed_node_group.module.user_data dir=.terraform/modules/eks/modules/_user_data from=manifest
  provider cloudinit hashicorp/cloudinit ">= 2.0"
  provider null hashicorp/null ">= 3.0"
module.eks_hybrid_node_role dir=.terraform/modules/eks_hybrid_node_role/modules/hybrid-node-role from=manifest 21.19.0
  provider aws hashicorp/aws ">= 6.28"
module.key_pair dir=.terraform/modules/key_pair from=manifest 2.1.1
  provider aws hashicorp/aws ">= 4.21"
  provider tls hashicorp/tls ">= 3.4"
module.remote_node_vpc dir=.terraform/modules/remote_node_vpc from=manifest 6.6.0
  provider aws hashicorp/aws ">= 6.28"
module.vpc dir=.terraform/modules/vpc from=manifest 6.6.0
  provider aws hashicorp/aws ">= 6.28"
`
	tests := []struct {
		name     string
		dir      string
		opts     TreeOptions
		want     string
		manifest string   // ManifestFile relative to dir, "" for none
		diags    []string // each contained in one diagnostic, in order
	}{
		{
			// Local children and grandchildren; the registry call has no
			// manifest to be found in.
			name: "eks-module",
			dir:  "eks-module",
			want: `(root) dir=. from=disk
  provider aws hashicorp/aws ">= 6.28"
  provider time hashicorp/time ">= 0.9"
  provider tls hashicorp/tls ">= 4.0"
module.eks_managed_node_group dir=modules/eks-managed-node-group from=disk
  provider aws hashicorp/aws ">= 6.28"
module.eks_managed_node_group.module.user_data dir=modules/_user_data from=disk
  provider cloudinit hashicorp/cloudinit ">= 2.0"
  provider null hashicorp/null ">= 3.0"
module.fargate_profile dir=modules/fargate-profile from=disk
  provider aws hashicorp/aws ">= 6.28"
module.self_managed_node_group dir=modules/self-managed-node-group from=disk
  provider aws hashicorp/aws ">= 6.28"
module.self_managed_node_group.module.user_data dir=modules/_user_data from=disk
  provider cloudinit hashicorp/cloudinit ">= 2.0"
  provider null hashicorp/null ">= 3.0"
unread module.kms at main.tf:5: not read: run terraform init or pass --modules-dir
`,
		},
		{
			name:     "eks-hybrid-nodes",
			dir:      "eks-hybrid-nodes",
			want:     eksHybridNodes,
			manifest: ".terraform/modules/modules.json",
		},
		{
			name:     "eks-hybrid-nodes with ModulesDir",
			dir:      "eks-hybrid-nodes",
			opts:     TreeOptions{ModulesDir: hybridModules},
			want:     eksHybridNodes,
			manifest: ".terraform/modules/modules.json",
		},
		{
			// The eks module's own layout read through a modules directory
			// that holds no manifest: the option names a directory that
			// is not there.
			name: "ModulesDir without a manifest",
			dir:  "eks-module",
			opts: TreeOptions{ModulesDir: filepath.Join("testdata", "tree", "eks-module", ".terraform", "modules")},
			diags: []string{
				"testdata/tree/eks-module/.terraform/modules/modules.json: Cannot read the module manifest; no such file or directory",
			},
		},
		{
			name:  "missing root",
			dir:   "none",
			diags: []string{"Cannot read the module directory"},
		},
		{
			name: "cycle",
			dir:  "cycle",
			want: `(root) dir=. from=disk
module.a dir=modules/a from=disk
module.a.module.b dir=modules/b from=disk
unread module.a.module.b.module.a at modules/b/main.tf:1: not read: the call leads back to modules/a, the directory of module.a
unread module.a.module.b.module.root at modules/b/main.tf:5: not read: the call leads back to testdata/tree/cycle, the directory of the root module
unread module.a.module.self at modules/a/main.tf:5: not read: the call leads back to modules/a, the directory of module.a
`,
			diags: []string{
				"testdata/tree/cycle/modules/b/main.tf:1:1: Module call cycle; The call module.a.module.b.module.a leads to testdata/tree/cycle/modules/a, the directory of module.a,",
				"testdata/tree/cycle/modules/b/main.tf:5:1: Module call cycle; The call module.a.module.b.module.root leads to testdata/tree/cycle, the directory of the root module,",
				"testdata/tree/cycle/modules/a/main.tf:5:1: Module call cycle; The call module.a.module.self leads to testdata/tree/cycle/modules/a, the directory of module.a,",
			},
		},
		{
			name: "bad-manifest",
			dir:  "bad-manifest",
			want: `(root) dir=. from=disk
unread module.vpc at main.tf:1: not read: the module manifest .terraform/modules/modules.json has errors and no readable record for "vpc"
`,
			manifest: ".terraform/modules/modules.json",
			diags: []string{
				"testdata/tree/bad-manifest/.terraform/modules/modules.json:2:126: Trailing comma in array;",
				"testdata/tree/bad-manifest/.terraform/modules/modules.json:2:128: Mismatched braces;",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join("testdata", "tree", tt.dir)
			tree, diags := LoadTree(root, tt.opts)
			checkTree(t, tree)
			if len(diags) != len(tt.diags) {
				t.Fatalf("diagnostics:\n%s\nwant %d containing %q", formatAll(diags), len(tt.diags), tt.diags)
			}
			for i, want := range tt.diags {
				if got := diag.Format(diags[i]); !strings.Contains(got, want) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, got, want)
				}
			}
			if tt.want != "" {
				if got := treeSummary(t, tree, root); got != tt.want {
					t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
				}
			}
			wantManifest := ""
			if tt.manifest != "" {
				wantManifest = filepath.Join(root, filepath.FromSlash(tt.manifest))
			}
			if tree.ManifestFile != wantManifest {
				t.Errorf("ManifestFile = %q, want %q", tree.ManifestFile, wantManifest)
			}
		})
	}
}

// TestLoadTreeEKSHybridNodes checks the example against what
// `terraform init` and the eks module make of it.
func TestLoadTreeEKSHybridNodes(t *testing.T) {
	tree, diags := LoadTree(filepath.Join("testdata", "tree", "eks-hybrid-nodes"), TreeOptions{})
	if len(diags) > 0 {
		t.Fatal(formatAll(diags))
	}
	has := func(n *Node, local string) bool {
		for _, p := range n.Module.Providers {
			if p.LocalName == local {
				return true
			}
		}
		return false
	}
	eks := tree.Node("eks")
	if eks == nil || eks.Parent != tree.Root || eks.Call.Source != "terraform-aws-modules/eks/aws" || eks.Call.Version != "~> 21.0" {
		t.Fatalf("module.eks: %+v", eks)
	}
	if eks.Record.Source != "registry.terraform.io/terraform-aws-modules/eks/aws" || eks.Record.Version != "21.19.0" {
		t.Errorf("module.eks record: %+v", eks.Record)
	}
	// The eks module requires hashicorp/time; the root does not.
	if has(tree.Root, "time") || !has(eks, "time") {
		t.Errorf("time required by the root %v, by module.eks %v", has(tree.Root, "time"), has(eks, "time"))
	}
	// A local call inside the remote module, and a "../" call below it.
	ud := tree.Node("eks.eks_managed_node_group.user_data")
	if ud == nil || ud.Address() != "module.eks.module.eks_managed_node_group.module.user_data" ||
		ud.Call.Source != "../_user_data" || ud.Parent.Parent != eks || !has(ud, "cloudinit") {
		t.Fatalf("user_data: %+v", ud)
	}
	// The two node groups call the same directory, read once.
	other := tree.Node("eks.self_managed_node_group.user_data")
	if other == nil || other.Module != ud.Module {
		t.Errorf("the two user_data modules are read apart")
	}
	if role := tree.Node("eks_hybrid_node_role"); role == nil || role.Call.Source != "terraform-aws-modules/eks/aws//modules/hybrid-node-role" {
		t.Errorf("module.eks_hybrid_node_role: %+v", role)
	}
}

// writeTree writes files (slash-separated paths relative to dir) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadTreeCases(t *testing.T) {
	const vpcCall = "module \"vpc\" {\n  source  = \"terraform-aws-modules/vpc/aws\"\n  version = \"~> 6.0\"\n}\n"
	const vpcModule = "terraform {\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \">= 6.28\"\n    }\n  }\n}\n"
	const rootRecord = `{"Key":"","Source":"","Dir":"."}`
	vpcRecord := func(dir string) string {
		return `{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"6.6.0","Dir":"` + dir + `"}`
	}
	manifest := func(records ...string) string { return `{"Modules":[` + strings.Join(records, ",") + `]}` }
	tests := []struct {
		name       string
		files      map[string]string
		modulesDir string // relative to the root
		want       string
		diags      []string
	}{
		{
			name: "no record for the call",
			files: map[string]string{
				"main.tf":                         vpcCall,
				".terraform/modules/modules.json": manifest(rootRecord),
			},
			want: `(root) dir=. from=disk
unread module.vpc at main.tf:1: not read: the module manifest .terraform/modules/modules.json has no record for "vpc"; run terraform init
`,
		},
		{
			name: "recorded directory missing",
			files: map[string]string{
				"main.tf":                         vpcCall,
				".terraform/modules/modules.json": manifest(rootRecord, vpcRecord(".terraform/modules/vpc")),
			},
			want: `(root) dir=. from=disk
unread module.vpc at main.tf:1: not read: the directory .terraform/modules/vpc, which the module manifest records for "vpc", does not exist; run terraform init
`,
		},
		{
			// TF_DATA_DIR=tfdata: the manifest's directories are still
			// relative to the root module.
			name:       "modules directory elsewhere",
			modulesDir: "tfdata/modules",
			files: map[string]string{
				"main.tf":                      vpcCall,
				"tfdata/modules/modules.json":  manifest(rootRecord, vpcRecord("tfdata/modules/vpc")),
				"tfdata/modules/vpc/main.tf":   vpcModule,
				".terraform/modules/README.md": "not the manifest\n",
			},
			want: `(root) dir=. from=disk
module.vpc dir=tfdata/modules/vpc from=manifest 6.6.0
  provider aws hashicorp/aws ">= 6.28"
`,
		},
		{
			name: "source expression and no source",
			files: map[string]string{
				"main.tf": "variable \"s\" {\n  type = string\n}\n\nmodule \"x\" {\n  source = var.s\n}\n\nmodule \"y\" {\n  version = \"1.0.0\"\n}\n",
			},
			want: `(root) dir=. from=disk
unread module.x at main.tf:5: not read: the source is an expression, which prerel does not evaluate
unread module.y at main.tf:9: not read: the module call has no source argument
`,
			diags: []string{`main.tf:9:1: Missing required argument; The module call "y" has no source argument.`},
		},
		{
			// Terraform joins a local source inside a remote package to
			// the parent's directory when the manifest has no record.
			name: "local call inside a remote module without a record",
			files: map[string]string{
				"main.tf":                                         vpcCall,
				".terraform/modules/modules.json":                 manifest(rootRecord, vpcRecord(".terraform/modules/vpc")),
				".terraform/modules/vpc/main.tf":                  "module \"flow_log\" {\n  source = \"./modules/flow-log\"\n}\n",
				".terraform/modules/vpc/modules/flow-log/main.tf": vpcModule,
			},
			want: `(root) dir=. from=disk
module.vpc dir=.terraform/modules/vpc from=manifest 6.6.0
module.vpc.module.flow_log dir=.terraform/modules/vpc/modules/flow-log from=disk
  provider aws hashicorp/aws ">= 6.28"
`,
		},
		{
			// A stale record for a local call in a local parent is not
			// used: Terraform reads the path.
			name: "local call in the root with a stale record",
			files: map[string]string{
				"main.tf":                         "module \"a\" {\n  source = \".\\\\modules\\\\a\"\n}\n",
				"modules/a/main.tf":               vpcModule,
				"old/a/main.tf":                   "",
				".terraform/modules/modules.json": manifest(rootRecord, `{"Key":"a","Source":"./old/a","Dir":"old/a"}`),
			},
			want: `(root) dir=. from=disk
module.a dir=modules/a from=disk
  provider aws hashicorp/aws ">= 6.28"
`,
		},
		{
			name: "local directory missing",
			files: map[string]string{
				"main.tf": "module \"a\" {\n  source = \"./elsewhere\"\n}\n",
			},
			want: `(root) dir=. from=disk
unread module.a at main.tf:1: not read: the directory elsewhere does not exist
`,
		},
		{
			// Errors in several modules come back together; a directory
			// without configuration is reported at the call.
			name: "errors in several modules",
			files: map[string]string{
				"main.tf":           "module \"a\" {\n  source = \"./a\"\n}\n\nmodule \"b\" {\n  source = \"./b\"\n}\n\nmodule \"c\" {\n  source = \"./c\"\n}\n",
				"a/main.tf":         "module \"x\" {\n  source  = \"corp/x/aws\"\n  version = \n}\n",
				"b/main.tf":         "terraform {\n  required_providers {\n    aws = {\n      version = [\n    }\n  }\n}\n",
				"c/README.md":       "no configuration\n",
				"a/unrelated/x.txt": "",
			},
			diags: []string{
				"a/main.tf:3:13: Invalid expression;",
				"b/main.tf:5:5: Invalid expression;",
				"main.tf:9:1: No configuration files;",
			},
		},
		{
			name: "symbolic link back to the root",
			files: map[string]string{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
				"a/main.tf": "module \"loop\" {\n  source = \"./up\"\n}\n",
			},
			want: `(root) dir=. from=disk
module.a dir=a from=disk
unread module.a.module.loop at a/main.tf:1: not read: the call leads back to a/up, the directory of the root module
`,
			diags: []string{"a/main.tf:1:1: Module call cycle;"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, tt.files)
			if strings.HasPrefix(tt.name, "symbolic link") {
				if err := os.Symlink("..", filepath.Join(root, "a", "up")); err != nil {
					t.Skip("no symbolic links:", err)
				}
			}
			var opts TreeOptions
			if tt.modulesDir != "" {
				opts.ModulesDir = filepath.Join(root, filepath.FromSlash(tt.modulesDir))
			}
			tree, diags := LoadTree(root, opts)
			checkTree(t, tree)
			if len(diags) != len(tt.diags) {
				t.Fatalf("diagnostics:\n%s\nwant %d containing %q", formatAll(diags), len(tt.diags), tt.diags)
			}
			for i, want := range tt.diags {
				got := strings.ReplaceAll(diag.Format(diags[i]), root+string(filepath.Separator), "")
				if !strings.Contains(filepath.ToSlash(got), want) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, got, want)
				}
			}
			if tt.want != "" {
				if got := treeSummary(t, tree, root); got != tt.want {
					t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
				}
			}
		})
	}
}

func TestLoadTreeDepth(t *testing.T) {
	root := t.TempDir()
	const call = "module \"m\" {\n  source = \"./m\"\n}\n"
	dir := root
	for i := 0; i <= MaxTreeDepth+1; i++ {
		writeTree(t, dir, map[string]string{"main.tf": call})
		dir = filepath.Join(dir, "m")
	}
	tree, diags := LoadTree(root, TreeOptions{})
	checkTree(t, tree)
	if len(tree.Nodes) != MaxTreeDepth+1 || len(tree.Unread) != 1 || len(tree.Unread[0].Path) != MaxTreeDepth+1 {
		t.Fatalf("%d nodes, unread %+v", len(tree.Nodes), tree.Unread)
	}
	if len(diags) != 1 || !strings.Contains(diag.Format(diags[0]), "main.tf:1:1: Module tree too deep; ") {
		t.Errorf("diagnostics:\n%s", formatAll(diags))
	}
}

// TestLoadTreeSize reads a tree of 2^20 call paths over 20 directories,
// each module calling the next twice: the reading stops at MaxTreeNodes.
func TestLoadTreeSize(t *testing.T) {
	root := t.TempDir()
	const calls = "module \"a\" {\n  source = \"./m\"\n}\nmodule \"b\" {\n  source = \"./m\"\n}\n"
	dir := root
	for i := 0; i < 20; i++ {
		writeTree(t, dir, map[string]string{"main.tf": calls})
		dir = filepath.Join(dir, "m")
	}
	writeTree(t, dir, map[string]string{"main.tf": "# the last module\n"})
	tree, diags := LoadTree(root, TreeOptions{})
	if len(tree.Nodes) != MaxTreeNodes {
		t.Fatalf("%d nodes, want %d", len(tree.Nodes), MaxTreeNodes)
	}
	if len(diags) != 1 || !strings.Contains(diag.Format(diags[0]), "Module tree too large") {
		t.Errorf("want one diagnostic, that the tree is too large; got %d: %v", len(diags), diags)
	}
}

func TestParseManifest(t *testing.T) {
	tests := []struct {
		name, src string
		want      string   // the records, "KEY SOURCE VERSION DIR at PLACE" one a line, by key
		diags     []string // each contained in one diagnostic, in order
	}{
		{name: "empty", src: " \n"},
		{name: "no modules", src: `{}`},
		{name: "null modules", src: `{"Modules":null}`},
		{
			name: "as terraform init writes it",
			src:  `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"6.6.0","Dir":".terraform/modules/vpc"}]}`,
			want: ` "" "" "." at m.json:1:13
vpc "registry.terraform.io/terraform-aws-modules/vpc/aws" "6.6.0" ".terraform/modules/vpc" at m.json:1:46
`,
		},
		{
			name: "names in any case, other members, null",
			src:  "{\"modules\": [\n  {\"key\": \"a\", \"DIR\": \"x\", \"source\": null, \"Extra\": [1]}\n]}",
			want: "a \"\" \"\" \"x\" at m.json:2:3\n",
		},
		{name: "syntax", src: `{"Modules":[`, diags: []string{
			"m.json:1:13: Missing value; The JSON data ends prematurely.",
			"m.json:1:12: Unclosed object; No closing bracket was found for this JSON array.",
			"m.json:1:1: Unclosed object; No closing brace was found for this JSON object.",
		}},
		{name: "not an object", src: `[{"Modules":[]}]`, diags: []string{"m.json:1:1: Invalid module manifest; The module manifest must be a JSON object."}},
		{name: "modules not an array", src: `{"Modules":{"Key":""}}`, diags: []string{`m.json:1:12: Invalid module manifest; The "Modules" member must be an array`}},
		{
			name:  "record not an object",
			src:   `{"Modules":[{"Key":"a","Dir":"a"},"b"]}`,
			want:  "a \"\" \"\" \"a\" at m.json:1:13\n",
			diags: []string{"m.json:1:35: Invalid module manifest; Each module record must be a JSON object."},
		},
		{
			name:  "wrong type",
			src:   `{"Modules":[{"Key":"a","Dir":5}]}`,
			want:  "a \"\" \"\" \"\" at m.json:1:13\n",
			diags: []string{`m.json:1:30: Invalid module manifest; The member "Dir" of a module record must be a string.`},
		},
		{
			name:  "bad version",
			src:   `{"Modules":[{"Key":"a","Version":"latest"}]}`,
			want:  "a \"\" \"latest\" \"\" at m.json:1:13\n",
			diags: []string{`m.json:1:13: Invalid module manifest; The version "latest" recorded for the key "a" is not a version`},
		},
		{
			name:  "duplicate key",
			src:   "{\"Modules\":[\n{\"Key\":\"a\",\"Dir\":\"one\"},\n{\"Key\":\"a\",\"Dir\":\"two\"}]}",
			want:  "a \"\" \"\" \"one\" at m.json:2:1\n",
			diags: []string{`m.json:3:1: Duplicate module record; The module manifest has two records for the key "a"; the first is at m.json:2:1.`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := ParseManifest([]byte(tt.src), "m.json")
			if len(diags) != len(tt.diags) {
				t.Fatalf("diagnostics:\n%s\nwant %d containing %q", formatAll(diags), len(tt.diags), tt.diags)
			}
			for i, want := range tt.diags {
				if got := diag.Format(diags[i]); !strings.Contains(got, want) {
					t.Errorf("diagnostic %d = %q, want it to contain %q", i, got, want)
				}
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				r := m[k]
				fmt.Fprintf(&b, "%s %q %q %q at %s\n", r.Key, r.Source, r.Version, r.Dir, diag.FormatRange(r.Pos))
			}
			if b.String() != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tt.want)
			}
		})
	}
	if _, diags := LoadManifest(filepath.Join("testdata", "none.json")); !diags.HasErrors() {
		t.Error("missing manifest: no error")
	}
}

// TestLoadTreeManyCallsPastTheDepth reads modules nested past
// MaxTreeDepth, each calling the next many times: every instance at the
// bottom lists its calls as too deep, so that without MaxTreeUnread the
// calls not read would number the instances times the calls.
func TestLoadTreeManyCallsPastTheDepth(t *testing.T) {
	const perModule = 40
	var calls strings.Builder
	for i := range perModule {
		fmt.Fprintf(&calls, "module \"c%d\" {\n  source = \"./m\"\n}\n", i)
	}
	root := t.TempDir()
	dir := root
	for range MaxTreeDepth + 2 {
		writeTree(t, dir, map[string]string{"main.tf": calls.String()})
		dir = filepath.Join(dir, "m")
	}
	writeTree(t, dir, map[string]string{"main.tf": "# the last module\n"})
	done := make(chan struct{})
	var tree *Tree
	var diags hcl.Diagnostics
	go func() {
		defer close(done)
		tree, diags = LoadTree(root, TreeOptions{})
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("LoadTree did not return within 2 minutes")
	}
	if len(tree.Unread) > MaxTreeUnread || len(tree.Nodes) > MaxTreeNodes {
		t.Errorf("%d nodes and %d calls not read; want at most %d and %d", len(tree.Nodes), len(tree.Unread), MaxTreeNodes, MaxTreeUnread)
	}
	if !strings.Contains(formatAll(diags), "More than 10000 module calls could not be read") {
		t.Errorf("diagnostics:\n%.2000s", formatAll(diags))
	}
}

// The package doc gives the limits the code has.
func TestDocGivesTheLimits(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(strings.ReplaceAll(string(src), "//", "")), " ")
	for _, want := range []string{
		fmt.Sprintf("MaxConfigBytes (%d MiB)", MaxConfigBytes>>20),
		fmt.Sprintf("at most %d MiB long (safefile.ConfigLimit)", safefile.ConfigLimit>>20),
		fmt.Sprintf("nest at most %d levels", MaxNesting),
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the package doc does not say %q", want)
		}
	}
}

// A local module source that is a loop of symbolic links, or a file, is
// reported as what it is, not as a missing directory.
func TestLoadTreeSaysWhyALocalSourceIsNoDirectory(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"main.tf": "module \"loop\" {\n  source = \"./loop\"\n}\nmodule \"file\" {\n  source = \"./file\"\n}\n",
		"file/x":  "",
		"notdir":  "a file",
	})
	if err := os.RemoveAll(filepath.Join(root, "file")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(root, "loop")); err != nil {
		t.Skip("symlink:", err)
	}
	tree, _ := LoadTree(root, TreeOptions{})
	got := map[string]string{}
	for _, u := range tree.Unread {
		got[u.Key()] = u.Reason
	}
	want := map[string]string{
		"loop": "not read: the directory " + filepath.Join(root, "loop") + " is a loop of symbolic links",
		"file": "not read: the directory " + filepath.Join(root, "file") + " is not a directory (it is a regular file)",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %q, want %q", k, got[k], w)
		}
	}
}
