package outcome

// Why tells why a model forbids an outcome of a test: the smallest sets of
// its checks whose removal lets the outcome be observed.
type Why struct {
	// Target is the outcome asked about: the condition's proposition, or
	// its negation for a forall.
	Target string
	// Allowed, when not nil, is an execution the model allows in which
	// the outcome is observed: nothing forbids it.
	Allowed *Execution
	// Sets are the minimal sets of checks (dropping any one of a set's
	// checks keeps the outcome forbidden), smallest first, with an
	// execution each that shows the outcome and fails exactly those
	// checks (Execution.Fails holds the witnesses).
	Sets []WhySet
	// Complete says that Sets holds every minimal set: none was left out
	// for the bound.
	Complete bool
	// Never says that no candidate execution shows the outcome, whatever
	// checks are left out: the program itself rules it out.
	Never bool
	// Shown are the relations the model shows, for pictures and listings
	// (as Outcome.Shown).
	Shown []string
}

// WhySet is one minimal set of checks whose removal makes the outcome
// observable.
type WhySet struct {
	Checks    []string // as -skipchecks takes them, in the model's order
	Execution Execution
}
