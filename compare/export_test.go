package compare

// The unexported names the package's external tests use.
var (
	DescribeCase = describeCase
	Diff         = diffReports
	FileFS       = fileFS
	SameCases    = sameCases
)

const (
	InvalidSelected = invalidSelected
	NoneSelected    = noneSelected
	MaxDriftChanges = maxDriftChanges
)

// Baseline is baseline, for the external tests.
func (r *Report) Baseline() *Report { return r.baseline() }
