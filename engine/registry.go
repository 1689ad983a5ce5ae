package engine

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Registry holds policies by name, in registration order. There is no
// global registry: a program makes one with NewRegistry and registers the
// policies it wants (package catalogue registers prerel's own), and hands
// it to whatever needs to look policies up. A Registry is safe for
// concurrent use.
//
// The zero Registry is empty and ready to use. A nil *Registry is empty
// and stays so: Lookup finds nothing, All, Names and Resolve(nil) return
// no policies, and Register returns an error.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]Policy
	order  []Policy
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]Policy{}}
}

// Register adds p. It fails when the name is not lower case letters, digits
// and '-', or is already taken, when p is nil or holds a nil pointer
// (ErrNilPolicy), and when r is nil.
func (r *Registry) Register(p Policy) error {
	if r == nil {
		return errors.New("register: nil registry")
	}
	if p == nil {
		return fmt.Errorf("register: %w", ErrNilPolicy)
	}
	if isNil(p) {
		return fmt.Errorf("register: %w (%T)", ErrNilPolicy, p)
	}
	name := p.Name()
	if err := checkName(name); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byName == nil {
		r.byName = map[string]Policy{}
	}
	if _, dup := r.byName[name]; dup {
		return fmt.Errorf("register: a policy named %q is already registered", name)
	}
	r.byName[name] = p
	r.order = append(r.order, p)
	return nil
}

func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("register: empty policy name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("register: policy name %q: only lower case letters, digits and '-' are allowed", name)
		}
	}
	return nil
}

// Lookup returns the policy registered under name. A nil r has none.
func (r *Registry) Lookup(name string) (Policy, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	p, ok := r.byName[name]
	return p, ok
}

// All returns every policy in registration order; nil for a nil r.
func (r *Registry) All() []Policy {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]Policy(nil), r.order...)
}

// Names returns every policy name in registration order.
func (r *Registry) Names() []string {
	all := r.All()
	names := make([]string, len(all))
	for i, p := range all {
		names[i] = p.Name()
	}
	return names
}

// UnknownPolicyError is Resolve's error for a name no policy has.
type UnknownPolicyError struct {
	Name  string
	Known []string // every registered name, sorted
}

func (e *UnknownPolicyError) Error() string {
	return fmt.Sprintf("unknown policy %q (known: %s)", e.Name, strings.Join(e.Known, ", "))
}

// Resolve looks up a list of names, failing on the first unknown one with
// an *UnknownPolicyError, which lists the known names. An empty list
// means every policy.
func (r *Registry) Resolve(names []string) ([]Policy, error) {
	if len(names) == 0 {
		return r.All(), nil
	}
	out := make([]Policy, 0, len(names))
	for _, n := range names {
		p, ok := r.Lookup(n)
		if !ok {
			known := r.Names()
			sort.Strings(known)
			return nil, &UnknownPolicyError{Name: n, Known: known}
		}
		out = append(out, p)
	}
	return out, nil
}
