package aarch64

import (
	"strconv"
	"strings"

	"github.com/purr-mcm/purr/xcfa"
)

// reg is a general-purpose register operand.
type reg struct {
	name string // the XCFA register: X0..X30, SP
	w32  bool   // written as Wn (32-bit view)
	zero bool   // XZR or WZR
}

func parseReg(s string) (reg, bool) {
	u := strings.ToUpper(s)
	switch u {
	case "XZR":
		return reg{name: "XZR", zero: true}, true
	case "WZR":
		return reg{name: "XZR", zero: true, w32: true}, true
	case "SP":
		return reg{name: "SP"}, true
	case "WSP":
		return reg{name: "SP", w32: true}, true
	}
	if len(u) < 2 || (u[0] != 'X' && u[0] != 'W') {
		return reg{}, false
	}
	n, err := strconv.Atoi(u[1:])
	if err != nil || n < 0 || n > 30 || strconv.Itoa(n) != u[1:] {
		return reg{}, false
	}
	return reg{name: "X" + u[1:], w32: u[0] == 'W'}, true
}

func (r reg) width() int {
	if r.w32 {
		return 32
	}
	return 64
}

// raw reads all 64 bits of the register (the zero register reads 0).
func (r reg) raw() xcfa.Expr {
	if r.zero {
		return xcfa.Const{Value: 0}
	}
	return xcfa.Reg{Name: r.name}
}

// read reads the register at its width: Wn reads the low 32 bits.
func (r reg) read() xcfa.Expr {
	if r.zero {
		return xcfa.Const{Value: 0}
	}
	if r.w32 {
		return zext32(xcfa.Reg{Name: r.name})
	}
	return xcfa.Reg{Name: r.name}
}

// sread reads the register sign-extended from its width.
func (r reg) sread() xcfa.Expr {
	if r.zero {
		return xcfa.Const{Value: 0}
	}
	if r.w32 {
		return xcfa.Unary{Op: xcfa.Sext32, X: xcfa.Reg{Name: r.name}}
	}
	return xcfa.Reg{Name: r.name}
}

func zext32(e xcfa.Expr) xcfa.Expr {
	if c, ok := e.(xcfa.Const); ok {
		return xcfa.Const{Value: int64(uint32(c.Value))}
	}
	return xcfa.Unary{Op: xcfa.Zext32, X: e}
}

func sext32(e xcfa.Expr) xcfa.Expr {
	if c, ok := e.(xcfa.Const); ok {
		return xcfa.Const{Value: int64(int32(c.Value))}
	}
	return xcfa.Unary{Op: xcfa.Sext32, X: e}
}

// truncate keeps the low bits of a width; 64 keeps everything.
func truncate(e xcfa.Expr, width int) xcfa.Expr {
	switch width {
	case 8:
		return unary(xcfa.Zext8, e)
	case 16:
		return unary(xcfa.Zext16, e)
	case 32:
		return zext32(e)
	}
	return e
}

// signExtend sign-extends the low bits of a width.
func signExtend(e xcfa.Expr, width int) xcfa.Expr {
	switch width {
	case 8:
		return unary(xcfa.Sext8, e)
	case 16:
		return unary(xcfa.Sext16, e)
	case 32:
		return sext32(e)
	}
	return e
}

func unary(op xcfa.UnOp, e xcfa.Expr) xcfa.Expr {
	if c, ok := e.(xcfa.Const); ok {
		v := c.Value
		switch op {
		case xcfa.Zext8:
			return xcfa.Const{Value: int64(uint8(v))}
		case xcfa.Zext16:
			return xcfa.Const{Value: int64(uint16(v))}
		case xcfa.Sext8:
			return xcfa.Const{Value: int64(int8(v))}
		case xcfa.Sext16:
			return xcfa.Const{Value: int64(int16(v))}
		}
	}
	return xcfa.Unary{Op: op, X: e}
}

func bin(op xcfa.BinOp, x, y xcfa.Expr) xcfa.Expr { return xcfa.Binary{Op: op, X: x, Y: y} }

func cnst(v int64) xcfa.Expr { return xcfa.Const{Value: v} }

// assign writes a register at its width: a W write zero-extends, a write
// to the zero register is discarded.
func (b *builder) assign(r reg, e xcfa.Expr) {
	if r.zero {
		return
	}
	if r.w32 {
		e = zext32(e)
	}
	b.emit(xcfa.Assign{Dst: r.name, Value: e})
}
