package outcome

// Show selects the executions a check keeps for people to read, with
// herd7's -show meanings.
type Show string

// The selections of herd7's -show.
const (
	ShowNone Show = "none" // keep none (the default)
	ShowAll  Show = "all"  // every consistent execution
	ShowProp Show = "prop" // those where the condition's proposition holds
	ShowNeg  Show = "neg"  // those where it does not
	ShowCond Show = "cond" // those that validate the condition (prop for exists, neg for ~exists and forall)
	ShowWit  Show = "wit"  // the witnesses: those that make the test's verdict what it is
)

// Execution is one consistent execution, as listings, pictures, JSON and
// the page show it. Event IDs index Events.
type Execution struct {
	Index     int               // 1-based, in the order the engine found it
	Events    []Event           // init writes first, then by thread and program order
	Relations map[string][]Edge // rf, co, fr, po, and the relations the model defines
	Sets      map[string][]int  // the event sets the model defines (W, R, F, ...)
	State     State             // its final state
	Holds     bool              // the condition's proposition holds on it
	Flags     []string          // the flags it raises
}

// Event is one event of an execution.
type Event struct {
	ID     int
	Label  string   // herd7's name: a, b, c, ... (init writes too)
	Thread int      // the thread's P-number; -1 for an init write
	Kind   string   // R, W or F
	Loc    string   // the location accessed ("x", "y[1]"); "" for a fence
	Value  string   // the value read or written, as herd7 prints it
	Tags   []string // annotations: A, L, X, ACQ, DMB.SY, ...
	Instr  string   // the instruction or statement as written ("LDR W0,[X1]")
	Pos    string   // where it is written, file:line:col
}

// Edge is a pair of a relation, by event ID.
type Edge struct{ From, To int }
