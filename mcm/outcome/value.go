package outcome

import (
	"strconv"
	"strings"
)

// Value is what a register or memory cell holds: an integer, or the
// address of a named location plus a byte offset.
type Value struct {
	Sym string // "" for an integer
	Off int64  // the integer, or the offset from Sym's address
}

// Int returns the integer value v.
func Int(v int64) Value { return Value{Off: v} }

// Addr returns the address of a location.
func Addr(sym string) Value { return Value{Sym: sym} }

// IsAddr tells whether v is an address.
func (v Value) IsAddr() bool { return v.Sym != "" }

func (v Value) String() string {
	switch {
	case v.Sym == "":
		return strconv.FormatInt(v.Off, 10)
	case v.Off == 0:
		return v.Sym
	default:
		return v.Sym + "+" + strconv.FormatInt(v.Off, 10)
	}
}

// Cast is a value as a location of type typ holds it: integers wrap to
// the type's width and signedness; addresses are left alone.
func Cast(typ string, v Value) Value {
	if v.IsAddr() {
		return v
	}
	x := v.Off
	switch strings.TrimPrefix(typ, "signed ") {
	case "char", "int8_t":
		x = int64(int8(x))
	case "uint8_t", "unsigned char":
		x = int64(uint8(x))
	case "short", "int16_t":
		x = int64(int16(x))
	case "uint16_t", "unsigned short":
		x = int64(uint16(x))
	case "", "int", "int32_t":
		x = int64(int32(x))
	case "uint32_t", "unsigned", "unsigned int":
		x = int64(uint32(x))
	}
	return Int(x)
}

// Format prints a value of a location as herd7 does: unsigned 64-bit
// types in full, everything else signed; with hex (herd7's -hexa), an
// integer prints as its bits at the type's width.
func Format(typ string, v Value, hex bool) string {
	v = Cast(typ, v)
	if v.IsAddr() {
		return v.String()
	}
	if hex {
		bits := uint64(v.Off)
		if w := TypeSize(typ); w < 8 && typ != "" || typ == "" {
			if typ == "" {
				w = 4
			}
			bits &= 1<<(8*uint(w)) - 1
		}
		return "0x" + strconv.FormatUint(bits, 16)
	}
	if typ == "uint64_t" || typ == "unsigned long" {
		return strconv.FormatUint(uint64(v.Off), 10)
	}
	return v.String()
}

// TypeSize is the size in bytes of a litmus type; types herd7 does not
// size default to a 32-bit int, as herd7's do.
func TypeSize(t string) int {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "unsigned "), "signed ")
	switch t {
	case "char", "int8_t", "uint8_t":
		return 1
	case "short", "int16_t", "uint16_t":
		return 2
	case "int64_t", "uint64_t", "long", "intptr_t", "uintptr_t", "long long":
		return 8
	}
	return 4
}
