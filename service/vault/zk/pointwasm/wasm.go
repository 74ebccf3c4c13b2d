package pointwasm

import (
	"encoding/binary"
	"maps"
	"slices"
)

// What this file writes is the WebAssembly binary format (the core specification's chapter 5),
// as little of it as the module needs: one function type per signature, functions, one memory,
// exports and data segments.

// Value types.
const (
	i32 byte = 0x7f
	i64 byte = 0x7e
)

// Instructions, by their opcodes.
const (
	opTrap    = 0x00 // unreachable
	opBlock   = 0x02
	opLoop    = 0x03
	opIf      = 0x04
	opElse    = 0x05
	opEnd     = 0x0b
	opBr      = 0x0c
	opBrIf    = 0x0d
	opReturn  = 0x0f
	opCall    = 0x10
	opSelect  = 0x1b
	opGet     = 0x20
	opSet     = 0x21
	opTee     = 0x22
	opI32Load = 0x28
	opI64Load = 0x29
	opI32L8U  = 0x2d // i32.load8_u
	opI32L16U = 0x2f // i32.load16_u
	opI64L8U  = 0x31 // i64.load8_u
	opI32St   = 0x36
	opI64St   = 0x37
	opI32St8  = 0x3a
	opI32C    = 0x41 // i32.const
	opI64C    = 0x42 // i64.const
	opI32Eqz  = 0x45
	opI32Eq   = 0x46
	opI32Ne   = 0x47
	opI32GtU  = 0x4b
	opI32GeU  = 0x4f
	opI64Eqz  = 0x50
	opI32Add  = 0x6a
	opI32Sub  = 0x6b
	opI32Mul  = 0x6c
	opI32And  = 0x71
	opI32Or   = 0x72
	opI32Xor  = 0x73
	opI32Shl  = 0x74
	opI32ShrU = 0x76
	opI64Add  = 0x7c
	opI64Sub  = 0x7d
	opI64Mul  = 0x7e
	opI64And  = 0x83
	opI64Or   = 0x84
	opI64Xor  = 0x85
	opI64Shl  = 0x86
	opI64ShrS = 0x87
	opI64ShrU = 0x88
	opWrap    = 0xa7 // i32.wrap_i64
	blockVoid = 0x40
)

// code is a function's body as it is written: its parameters, its locals (allocated as the
// generator asks for them) and its instructions.
type code struct {
	params  []byte
	results []byte
	locals  []byte // the types of the locals after the parameters
	b       []byte
}

func newCode(params, results []byte) *code { return &code{params: params, results: results} }

// local adds a local of type t and answers its index.
func (c *code) local(t byte) uint32 {
	c.locals = append(c.locals, t)
	return uint32(len(c.params) + len(c.locals) - 1)
}

func (c *code) op(ops ...byte) *code { c.b = append(c.b, ops...); return c }
func (c *code) u(v uint32) *code     { c.b = binary.AppendUvarint(c.b, uint64(v)); return c }
func (c *code) get(l uint32) *code   { return c.op(opGet).u(l) }
func (c *code) set(l uint32) *code   { return c.op(opSet).u(l) }
func (c *code) tee(l uint32) *code   { return c.op(opTee).u(l) }
func (c *code) call(f uint32) *code  { return c.op(opCall).u(f) }
func (c *code) br(depth uint32) *code {
	return c.op(opBr).u(depth)
}
func (c *code) brIf(depth uint32) *code { return c.op(opBrIf).u(depth) }
func (c *code) i32(v int32) *code       { return c.op(opI32C).s(int64(v)) }
func (c *code) i64(v int64) *code       { return c.op(opI64C).s(v) }

// s appends a signed LEB128 integer.
func (c *code) s(v int64) *code {
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			c.b = append(c.b, b)
			return c
		}
		c.b = append(c.b, b|0x80)
	}
}

// mem appends a memory instruction with its alignment (log2 bytes) and offset.
func (c *code) mem(op byte, align, offset uint32) *code { return c.op(op).u(align).u(offset) }

// body is the function's code section entry: its locals, grouped by runs of one type, then its
// instructions and the end.
func (c *code) body() []byte {
	var groups [][2]uint32
	for _, t := range c.locals {
		if n := len(groups); n > 0 && groups[n-1][1] == uint32(t) {
			groups[n-1][0]++
		} else {
			groups = append(groups, [2]uint32{1, uint32(t)})
		}
	}
	var out []byte
	out = binary.AppendUvarint(out, uint64(len(groups)))
	for _, g := range groups {
		out = binary.AppendUvarint(out, uint64(g[0]))
		out = append(out, byte(g[1]))
	}
	out = append(out, c.b...)
	return append(out, opEnd)
}

// module is a WebAssembly module of functions (each its own type), one memory of pages 64 KiB
// pages, exported as "memory", and data segments.
type module struct {
	funcs   []*code
	exports map[string]uint32 // function exports
	pages   uint32
	data    []segment
}

type segment struct {
	at    uint32
	bytes []byte
}

// add adds a function and answers its index.
func (m *module) add(c *code) uint32 {
	m.funcs = append(m.funcs, c)
	return uint32(len(m.funcs) - 1)
}

func (m *module) bytes() []byte {
	out := []byte{0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00}
	section := func(id byte, items ...[]byte) {
		var body []byte
		body = binary.AppendUvarint(body, uint64(len(items)))
		for _, it := range items {
			body = append(body, it...)
		}
		out = append(out, id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	vec := func(b []byte) []byte { return append(binary.AppendUvarint(nil, uint64(len(b))), b...) }
	var types, funcs, bodies [][]byte
	for i, f := range m.funcs {
		types = append(types, append(append([]byte{0x60}, vec(f.params)...), vec(f.results)...))
		funcs = append(funcs, binary.AppendUvarint(nil, uint64(i)))
		bodies = append(bodies, vec(f.body()))
	}
	section(1, types...)
	section(3, funcs...)
	section(5, append([]byte{0x00}, binary.AppendUvarint(nil, uint64(m.pages))...))
	exports := [][]byte{append(vec([]byte("memory")), 0x02, 0x00)}
	for _, name := range slices.Sorted(maps.Keys(m.exports)) {
		exports = append(exports, append(append(vec([]byte(name)), 0x00), binary.AppendUvarint(nil, uint64(m.exports[name]))...))
	}
	section(7, exports...)
	section(10, bodies...)
	var data [][]byte
	for _, d := range m.data {
		seg := []byte{0x00, opI32C}
		seg = (&code{b: seg}).s(int64(d.at)).b
		seg = append(seg, opEnd)
		data = append(data, append(seg, vec(d.bytes)...))
	}
	section(11, data...)
	return out
}
