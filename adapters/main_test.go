package adapters_test

import (
	"testing"

	"github.com/prerel/prerel/internal/testgc"
)

func TestMain(m *testing.M) { testgc.Main(m) }
