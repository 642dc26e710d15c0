package outcome

import (
	"github.com/purr-mcm/purr/litmus"
	"github.com/purr-mcm/purr/mcm/herdout"
)

var quantifiers = map[litmus.Quantifier]herdout.Quantifier{
	litmus.Exists:    herdout.Exists,
	litmus.NotExists: herdout.NotExists,
	litmus.Forall:    herdout.Forall,
}

// Result is the outcome as herd7 prints it for test t; hex prints values
// in hexadecimal, as herd7's -hexa does.
func (o *Outcome) Result(t *litmus.Test, hex bool) herdout.Result {
	states := make([]herdout.State, len(o.States))
	// The states list the same locations, as a rule: print each once.
	type location struct {
		loc   *litmus.Loc
		whole bool // an array's
	}
	var locs []location
	var printed []string
	for i, st := range o.States {
		states[i].Bindings = make([]herdout.Binding, len(st))
		for j, b := range st {
			l := location{b.Loc, b.Array != nil}
			if j == len(locs) {
				locs, printed = append(locs, l), append(printed, b.LocString())
			} else if locs[j] != l {
				locs[j], printed[j] = l, b.LocString()
			}
			states[i].Bindings[j] = herdout.Binding{Loc: printed[j], Value: b.ValueString(hex)}
		}
	}
	cond := litmus.FormatProp(t.Cond)
	if hex {
		cond = litmus.FormatPropHex(t.Cond)
	}
	r := herdout.NewResult(t.Name, quantifiers[t.Quant], "("+cond+")",
		states, o.Positive, o.Negative, o.Flags, o.Loop)
	r.Hash = t.Hash()
	return r
}
