package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/apparentlymart/go-versions/versions"
	tfaddr "github.com/hashicorp/terraform-registry-address"
	svchost "github.com/hashicorp/terraform-svchost"
)

// DefaultMaxMirrorEntries bounds the files and directories the scan of
// one filesystem mirror visits.
const DefaultMaxMirrorEntries = 100_000

// mirrorScan is the scan of one filesystem mirror directory, done once.
type mirrorScan struct {
	once  sync.Once
	found map[tfaddr.Provider][]string
	err   error
}

// filesystemVersions returns the versions of p in the directory of m, in
// increasing order; none when the directory does not have p.
func (pi *ProviderInstallation) filesystemVersions(m InstallMethod, p tfaddr.Provider) ([]string, error) {
	pi.mu.Lock()
	if pi.scans == nil {
		pi.scans = map[string]*mirrorScan{}
	}
	s := pi.scans[m.Location]
	if s == nil {
		s = &mirrorScan{}
		pi.scans[m.Location] = s
	}
	pi.mu.Unlock()
	limit := pi.MaxMirrorEntries
	if limit <= 0 {
		limit = DefaultMaxMirrorEntries
	}
	s.once.Do(func() { s.found, s.err = ScanMirror(m.Location, limit) })
	if s.err != nil {
		return nil, s.err
	}
	return s.found[p], nil
}

// ScanMirror reads the providers of a filesystem mirror directory, as
// Terraform reads them, and returns the versions of each, in increasing
// order. A provider's package is either unpacked,
//
//	HOSTNAME/NAMESPACE/TYPE/VERSION/OS_ARCH/   (a directory)
//
// or packed,
//
//	HOSTNAME/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip
//
// (a file, its name compared in lower case); a version counts whatever
// platform its packages are for. Paths that do not have this form, or
// whose host, namespace, type, version or platform is not valid, are
// skipped. dir itself may be a symbolic link; the links below it are
// followed only where a package is (the last part of a path above), as
// Terraform follows them. The scan stops with an error once it has
// visited limit files and directories, and when a directory cannot be
// read (dir missing included), which fails terraform init too.
func ScanMirror(dir string, limit int) (map[tfaddr.Provider][]string, error) {
	base := dir
	if final, err := filepath.EvalSymlinks(dir); err == nil {
		base = final
	}
	found := map[tfaddr.Provider]map[string]versions.Version{}
	visited := 0
	err := filepath.WalkDir(base, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("cannot search %s: %w", full, unwrapPath(err))
		}
		if visited++; visited > limit {
			return fmt.Errorf("%s holds more than %d files and directories, the limit of a filesystem mirror's scan", dir, limit)
		}
		rel, err := filepath.Rel(base, full)
		if err != nil || rel == "." {
			return nil
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) < 3 {
			return nil
		}
		p, ok := mirrorProvider(parts[0], parts[1], parts[2])
		if !ok {
			// Nothing below can count.
			return skip(d)
		}
		if len(parts) == 3 {
			return nil
		}
		// A package may be a symbolic link: what it points to counts.
		info, err := os.Stat(full)
		if err != nil {
			return skip(d)
		}
		var version string
		switch len(parts) {
		case 4: // packed
			if info.IsDir() {
				return nil
			}
			name := strings.ToLower(parts[3])
			prefix := "terraform-provider-" + p.Type + "_"
			rest, ok := strings.CutPrefix(name, prefix)
			if !ok {
				return nil
			}
			rest, ok = strings.CutSuffix(rest, ".zip")
			if !ok {
				return nil
			}
			fields := strings.Split(rest, "_")
			if len(fields) < 3 || !validPlatform(fields[1]+"_"+fields[2]) {
				return nil
			}
			version = fields[0]
		case 5: // unpacked
			if !info.IsDir() || !validPlatform(parts[4]) {
				return skip(d)
			}
			version = parts[3]
		default:
			return skip(d)
		}
		v, err := versions.ParseVersion(version)
		if err != nil {
			return skip(d)
		}
		if found[p] == nil {
			found[p] = map[string]versions.Version{}
		}
		found[p][v.String()] = v
		return skip(d)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[tfaddr.Provider][]string, len(found))
	for p, vs := range found {
		list := make(versions.List, 0, len(vs))
		for _, v := range vs {
			list = append(list, v)
		}
		list.Sort()
		for _, v := range list {
			out[p] = append(out[p], v.String())
		}
	}
	return out, nil
}

// skip returns fs.SkipDir for a directory, so that the scan does not go
// below it, and nil for a file.
func skip(d fs.DirEntry) error {
	if d != nil && d.IsDir() {
		return fs.SkipDir
	}
	return nil
}

// mirrorProvider reads the provider of the first three parts of a path
// in a filesystem mirror; ok is false when they are not valid. Legacy
// providers (namespace "-") are skipped: no source address names one.
func mirrorProvider(host, namespace, typ string) (p tfaddr.Provider, ok bool) {
	h, err := svchost.ForComparison(host)
	if err != nil || namespace == "-" {
		return p, false
	}
	ns, err := tfaddr.ParseProviderPart(namespace)
	if err != nil {
		return p, false
	}
	t, err := tfaddr.ParseProviderPart(typ)
	if err != nil {
		return p, false
	}
	return tfaddr.Provider{Hostname: h, Namespace: ns, Type: t}, true
}

// validPlatform reports whether s is a platform as Terraform reads one:
// two words separated by one underscore, without white space.
func validPlatform(s string) bool {
	os, arch, ok := strings.Cut(s, "_")
	return ok && !strings.Contains(arch, "_") && !strings.ContainsAny(os, " \t\n\r") && !strings.ContainsAny(arch, " \t\n\r")
}

// unwrapPath returns the error of a *fs.PathError with its path, which the
// caller names, dropped.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
