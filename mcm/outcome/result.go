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
	for i, st := range o.States {
		for _, b := range st {
			states[i].Bindings = append(states[i].Bindings, herdout.Binding{Loc: b.LocString(), Value: b.ValueString(hex)})
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
