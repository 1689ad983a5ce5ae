package hclread

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// block is one module call and one resource of a typical Terraform
// configuration, with every kind of level the nesting check measures:
// blocks, objects, tuples, calls, templates, a heredoc, a conditional,
// operators, indexes, splats and comments.
const block = `# Module %[1]d.
module "m%[1]d" {
  source  = "terraform-aws-modules/eks/aws" // the registry module
  version = "~> 21.0"

  name               = "cluster-${var.env}-%[1]d"
  kubernetes_version = var.kubernetes_version != null ? var.kubernetes_version : "1.33"
  subnet_ids         = concat(module.vpc.private_subnets, [for s in var.extra : s.id if s.enabled])
  node_count         = max(1, var.nodes * 2 + length(var.zones) - 1)
  tags = merge(local.tags, {
    Name  = "m%[1]d"
    Owner = lower(var.owner)
  })
  /* Managed node groups. */
  eks_managed_node_groups = {
    default = {
      instance_types = ["m6i.large", "m5.large"]
      min_size       = 1
      max_size       = var.max_size[%[1]d %% 3]
      labels         = { for k, v in var.labels : k => v if !startswith(k, "internal/") }
    }
  }
}

resource "aws_iam_policy" "p%[1]d" {
  name   = "policy-%[1]d"
  arns   = aws_iam_role.r[*].arn
  policy = <<-EOT
    {
      "Version": "2012-10-17",
      "Statement": [%%{ for s in var.statements }"${s}",%%{ endfor }]
    }
  EOT
}

`

// config returns a configuration of about size bytes made of blocks.
func config(size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, block, i)
	}
	return []byte(b.String())
}

// BenchmarkParseHCL parses a configuration of a megabyte and reports the
// bytes allocated per byte of input (B/input-byte) besides Go's own
// figures.
func BenchmarkParseHCL(b *testing.B) {
	src := config(1 << 20)
	if _, diags := ParseHCL(src, "main.tf"); diags.HasErrors() {
		b.Fatal(diags)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		ParseHCL(src, "main.tf")
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(src)), "B/input-byte")
}
