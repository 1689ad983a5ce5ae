package readers_test

import (
	"testing"

	"github.com/prerel/prerel/compare"
	"github.com/prerel/prerel/compare/comparetest"
	"github.com/prerel/prerel/internal/longtest"
	"github.com/prerel/prerel/readers"
)

// Each policy's own table (engine.VersionReader) judges every case as
// Compile and Match do, on the readings' corners, the exhaustive domain
// (scope 1; 2 in the long run) and random groups.
func TestTablesEqualText(t *testing.T) {
	ex, err := compare.Exhaustive(longtest.Pick(compare.MinScope, compare.DefaultScope))
	if err != nil {
		t.Fatal(err)
	}
	random, err := compare.Random(7, longtest.Pick(20_000, 200_000))
	if err != nil {
		t.Fatal(err)
	}
	comparetest.TablesEqualText(t, readers.All(), edges{}, ex, random)
}
