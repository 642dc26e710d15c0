package events

import (
	"strings"

	"github.com/purr-mcm/purr/xcfa"
)

// herd's register events (UnfoldRegisterEvents). Each instruction reads
// the registers it uses through register-read events, and writes the
// registers it sets through register-write events. Inside an instruction
// values flow along iico_data, and along iico_ctrl where they only choose
// (the condition of a pick: a CAS's comparison, a CSEL's flags); between
// instructions they flow from a register write to the next reads of that
// register on the path (rf-reg). A read of a register no instruction wrote
// reads its initial value and reads from no event, as in herd.
//
// The translator's temporaries (tmp.N) are values inside one instruction:
// they make no register events, and whatever reads one takes its sources.
// The flags pseudo-registers NZCV.a and NZCV.b are herd's one NZCV.

// sources are the events of the current instruction a value comes from.
type sources struct{ data, ctrl []*Event }

func (s *sources) addData(es ...*Event) {
	for _, e := range es {
		s.data = mergeEvents(s.data, []*Event{e})
	}
}

func (s *sources) addCtrl(es ...*Event) {
	for _, e := range es {
		s.ctrl = mergeEvents(s.ctrl, []*Event{e})
	}
}

type regKey struct {
	reg  string
	data bool
}

// instrRegs is what the current instruction has read and written so far.
type instrRegs struct {
	reads  map[regKey]*Event  // its register reads: one per register and use (address or data)
	local  map[string]sources // registers (and temporaries) it has set: where their values come from
	writes map[string]*Event  // its register writes, by register
}

func newInstrRegs() *instrRegs {
	return &instrRegs{reads: map[regKey]*Event{}, local: map[string]sources{}, writes: map[string]*Event{}}
}

// clone copies the maps: paths that fork inside an instruction (the
// outcomes of a CAS) go on with what it did before the fork.
func (r *instrRegs) clone() *instrRegs {
	q := newInstrRegs()
	for k, v := range r.reads {
		q.reads[k] = v
	}
	for k, v := range r.local {
		q.local[k] = v
	}
	for k, v := range r.writes {
		q.writes[k] = v
	}
	return q
}

// enter starts a new instruction instance when e is another
// instruction's: consecutive edges of one instruction are one instance.
func (st *pathState) enter(e *xcfa.Edge) {
	if e.Instr != st.code || st.instr == 0 {
		st.instr++
		st.code, st.lastPos = e.Instr, e.Pos
		st.fusedOpen = false // a failed compare-and-swap writes nothing
		if st.regWriter != nil {
			st.cur = newInstrRegs()
		}
	}
}

func isTemporary(reg string) bool { return strings.HasPrefix(reg, "tmp.") }

// canonicalReg names the register herd has for reg: the two flags
// pseudo-registers are NZCV.
func canonicalReg(reg string) string {
	if strings.HasPrefix(reg, "NZCV.") {
		return "NZCV"
	}
	return reg
}

// exprSources adds to out the events x's value comes from, creating the
// register reads it makes. data marks the value a store writes (herd's
// DATA reads); ctrl puts every source among the choosing ones.
func (f *unfolder) exprSources(x xcfa.Expr, st *pathState, data, ctrl bool, out *sources) {
	switch x := x.(type) {
	case xcfa.Reg:
		if src, ok := st.cur.local[x.Name]; ok {
			if ctrl {
				out.addCtrl(src.data...)
			} else {
				out.addData(src.data...)
			}
			out.addCtrl(src.ctrl...)
			return
		}
		if isTemporary(x.Name) {
			return
		}
		r := f.readReg(canonicalReg(x.Name), data, st)
		if ctrl {
			out.addCtrl(r)
		} else {
			out.addData(r)
		}
	case xcfa.Binary:
		f.exprSources(x.X, st, data, ctrl, out)
		f.exprSources(x.Y, st, data, ctrl, out)
	case xcfa.Unary:
		f.exprSources(x.X, st, data, ctrl, out)
	case xcfa.Ite:
		f.exprSources(x.Cond, st, data, ctrl, out)
		f.exprSources(x.X, st, data, ctrl, out)
		f.exprSources(x.Y, st, data, ctrl, out)
	case xcfa.Pick:
		f.exprSources(x.Cond, st, data, true, out)
		f.exprSources(x.X, st, data, ctrl, out)
	}
}

// readReg returns the current instruction's read of reg for one use,
// creating it on first use.
func (f *unfolder) readReg(reg string, data bool, st *pathState) *Event {
	k := regKey{reg, data}
	if r, ok := st.cur.reads[k]; ok {
		return r
	}
	r := f.newEvent(nil, KindRegRead, st.lastPos, st.code, st)
	r.Reg, r.RegFrom = reg, st.regWriter[reg]
	r.Tags = []string{"Rreg"}
	if data {
		r.Tags = append(r.Tags, "DATA")
	}
	st.cur.reads[k] = r
	return r
}

// writeReg records that the current instruction sets dst from src: a
// register write event unless dst is a temporary.
func (f *unfolder) writeReg(proc *xcfa.Process, edge *xcfa.Edge, dst string, src sources, st *pathState) {
	st.cur.local[dst] = src
	if isTemporary(dst) {
		return
	}
	reg := canonicalReg(dst)
	w, ok := st.cur.writes[reg]
	if !ok || w.Seg != st.seg { // a write before a fork is shared by the paths: do not extend it
		w = nil
	}
	if w == nil {
		w = f.newEvent(proc, KindRegWrite, edge.Pos, edge.Instr, st)
		w.Reg = reg
		st.cur.writes[reg] = w
		st.regWriter[reg] = w
	}
	w.IicoData = mergeEvents(w.IicoData, src.data)
	w.IicoCtrl = mergeEvents(w.IicoCtrl, src.ctrl)
}
