package policyconfig_test

import (
	"strings"
	"testing"
	"time"

	tfaddr "github.com/hashicorp/terraform-registry-address"

	"github.com/prerel/prerel/resolve/policyconfig"
)

const cooled = `min_age = "7d"

module "vpc" {
  min_age = "72h"
}

module "db" {
  allow_undated = true
}

module "edge" {
  min_age = "0"
}

provider "hashicorp/aws" {
  policy = "cargo"
}
`

func TestCooldownSettings(t *testing.T) {
	cfg, diags := policyconfig.Parse(testRegistry(t), []byte(cooled), "prerel.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	week := 7 * 24 * time.Hour
	for _, tt := range []struct {
		name     string
		ch       policyconfig.Choice
		minAge   time.Duration
		undated  bool
		fromLine int
	}{
		{"default", cfg.Default(), week, false, 1},
		{"block min_age wins", cfg.Module("vpc"), 72 * time.Hour, false, 4},
		{"block allow_undated, top min_age", cfg.Module("db"), week, true, 1},
		{"turned off", cfg.Module("edge"), 0, false, 12},
		{"a policy block keeps the top's", cfg.Provider(tfaddr.MustParseProviderSource("hashicorp/aws")), week, false, 1},
		{"unnamed", cfg.Module("other"), week, false, 1},
	} {
		if tt.ch.MinAge != tt.minAge || tt.ch.AllowUndated != tt.undated || tt.ch.CooldownOrigin.Range.Start.Line != tt.fromLine {
			t.Errorf("%s: min age %v, undated %v, from %v; want %v, %v, line %d", tt.name, tt.ch.MinAge, tt.ch.AllowUndated, tt.ch.CooldownOrigin, tt.minAge, tt.undated, tt.fromLine)
		}
	}
	if !cfg.Cooldowns() {
		t.Error("Cooldowns() = false")
	}
	yes, day := true, 24*time.Hour
	cfg.SetCooldown(&day, &yes, policyconfig.FlagOrigin("--min-age 1d"))
	if d := cfg.Module("db"); d.MinAge != day || !d.AllowUndated || d.CooldownOrigin.String() != "--min-age 1d" {
		t.Errorf("after the flags: %+v", d)
	}
	if v := cfg.Module("vpc"); v.MinAge != 72*time.Hour || !v.AllowUndated {
		t.Errorf("the block's min_age should win over the flag: %+v", v)
	}
}

func TestCooldownErrors(t *testing.T) {
	for src, want := range map[string]string{
		`min_age = 7`:        `prerel.hcl:1,11-12: Invalid min_age; min_age is a minimum release age, a string such as "7d" or "72h".`,
		`min_age = "7 days"`: `prerel.hcl:1,11-19: Invalid min_age; minimum age "7 days": expected days`,
		`min_age = "-1h"`:    `negative`,
		"module \"vpc\" {\n  allow_undated = \"yes\"\n}": `prerel.hcl:2,19-24: Invalid allow_undated; allow_undated is true or false.`,
	} {
		_, diags := policyconfig.Parse(testRegistry(t), []byte(src), "prerel.hcl")
		if !diags.HasErrors() || !strings.Contains(diags.Error(), strings.TrimPrefix(want, "prerel.hcl:")) {
			t.Errorf("%s: %v, want %q", src, diags, want)
		}
	}
}
