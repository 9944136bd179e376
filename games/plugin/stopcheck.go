package plugin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// A referee module that loops must be stoppable, and must not hold up
// the judge's own goroutines: compiled code cannot be preempted, so a
// garbage collection's stop of the world would wait for it. wazero can
// check its context in every loop (WithCloseOnContextDone), leaving the
// compiled code for Go each time; but a Go module enters a loop at every
// function call (its functions are loops over their resume points): a
// referee's call then costs five times as much.
//
// Instead the judge adds to the module two globals of its own and, at
// the start of every function and loop, a countdown: every stopEvery
// counts the module leaves its code for Go (a memory.grow of 0 pages,
// where the Go runtime may preempt it), then traps (unreachable) if the
// stop global is set. A check costs a few instructions; setting the
// global stops the module within stopEvery checks wherever it runs.

// stopEvery is the checks between two visits to Go.
const stopEvery = 10000

// stopGlobal is the name under which the stop global is exported.
const stopGlobal = "judge.stop"

// errNotChecked says why a module was left without stop checks (wazero's
// own then bound it).
var errNotChecked = errors.New("stop checks not added")

// The sections of a module the checks touch.
const (
	secCustom = 0
	secImport = 2
	secMemory = 5
	secGlobal = 6
	secExport = 7
	secStart  = 8
	secCode   = 10
)

// sectionOrder is the place of each known section in a module: a global
// or export section the module has none of is put by it.
var sectionOrder = map[byte]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 13: 6, 6: 7, 7: 8, 8: 9, 9: 10, 12: 11, 10: 12, 11: 13}

// addStopChecks returns the module code with the countdown at the start
// of every function and loop, and its stop global exported as stopGlobal.
// It refuses (wrapping errNotChecked) a module it cannot read, one with
// no memory (to grow by 0) and one with a start section (which would run
// before the global can be reached).
func addStopChecks(code []byte) ([]byte, error) {
	if len(code) < 8 || !bytes.Equal(code[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, fmt.Errorf("%w: not a WebAssembly 1 module", errNotChecked)
	}
	var secs []section
	for r := (reader{b: code, i: 8}); !r.done(); {
		id := r.byte()
		n := r.u32()
		body := r.bytes(int(n))
		if r.err != nil {
			return nil, fmt.Errorf("%w: %v", errNotChecked, r.err)
		}
		if id == secStart {
			return nil, fmt.Errorf("%w: the module has a start section", errNotChecked)
		}
		secs = append(secs, section{id, body})
	}
	imported, defined, memories := 0, 0, 0
	hasGlobal, hasExport := false, false
	for _, s := range secs {
		switch s.id {
		case secImport:
			n, mems, err := imports(s.body)
			if err != nil {
				return nil, fmt.Errorf("%w: imports: %v", errNotChecked, err)
			}
			imported = n
			memories += mems
		case secMemory:
			r := reader{b: s.body}
			memories += int(r.u32())
		case secGlobal:
			r := reader{b: s.body}
			defined = int(r.u32())
			hasGlobal = r.err == nil
		case secExport:
			hasExport = true
		}
	}
	if memories == 0 {
		return nil, fmt.Errorf("%w: the module has no memory", errNotChecked)
	}
	if !hasGlobal {
		secs = insertSection(secs, section{secGlobal, []byte{0}})
	}
	if !hasExport {
		secs = insertSection(secs, section{secExport, []byte{0}})
	}
	tick := uint32(imported + defined)
	stop := tick + 1
	out := append(make([]byte, 0, len(code)+len(code)/8), code[:8]...)
	for _, s := range secs {
		body := s.body
		var err error
		switch s.id {
		case secCustom: // DWARF's offsets into the code would no longer hold
			if name, _ := (&reader{b: body}).name(); strings.HasPrefix(name, ".debug_") {
				continue
			}
		case secGlobal:
			// The countdown and the stop, (mut i32) each.
			g := append([]byte{0x7f, 0x01, 0x41}, appendSLEB(nil, stopEvery)...)
			g = append(g, 0x0b, 0x7f, 0x01, 0x41, 0x00, 0x0b)
			body, err = appendVector(body, 2, g)
		case secExport:
			e := binary.AppendUvarint(nil, uint64(len(stopGlobal)))
			e = append(e, stopGlobal...)
			e = append(e, 0x03) // a global
			e = binary.AppendUvarint(e, uint64(stop))
			body, err = appendVector(body, 1, e)
		case secCode:
			body, err = checkCode(body, countdown(tick, stop))
		}
		if err != nil {
			return nil, fmt.Errorf("%w: section %d: %v", errNotChecked, s.id, err)
		}
		out = append(out, s.id)
		out = binary.AppendUvarint(out, uint64(len(body)))
		out = append(out, body...)
	}
	return out, nil
}

type section struct {
	id   byte
	body []byte
}

// insertSection puts s before the first known section that follows it.
func insertSection(secs []section, s section) []section {
	i := 0
	for i < len(secs) && (secs[i].id == secCustom || sectionOrder[secs[i].id] < sectionOrder[s.id]) {
		i++
	}
	return append(secs[:i], append([]section{s}, secs[i:]...)...)
}

// appendVector adds n elements, elems, to a section that is a vector.
func appendVector(body []byte, n int, elems []byte) ([]byte, error) {
	r := reader{b: body}
	m := r.u32()
	if r.err != nil {
		return nil, r.err
	}
	out := binary.AppendUvarint(nil, uint64(m)+uint64(n))
	out = append(out, body[r.i:]...)
	return append(out, elems...), nil
}

// imports counts the globals and memories an import section brings in.
func imports(body []byte) (globals, memories int, err error) {
	r := reader{b: body}
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0x00: // a function: its type
			r.u32()
		case 0x01: // a table: its reference type and limits
			r.valType()
			r.limits()
		case 0x02: // a memory
			r.limits()
			memories++
		case 0x03: // a global: its type and mutability
			r.valType()
			r.byte()
			globals++
		case 0x04: // a tag
			r.byte()
			r.u32()
		default:
			r.fail(fmt.Errorf("import kind 0x%02x", kind))
		}
	}
	if r.err == nil && !r.done() {
		r.fail(errors.New("bytes after the imports"))
	}
	return globals, memories, r.err
}

// countdown is the check of the globals tick and stop:
//
//	global.get tick; i32.const 1; i32.sub; global.set tick
//	global.get tick; i32.eqz
//	if
//	  i32.const 0; memory.grow 0; drop      (a visit to Go)
//	  global.get stop; if; unreachable; end
//	  i32.const stopEvery; global.set tick
//	end
func countdown(tick, stop uint32) []byte {
	get := func(b []byte, op byte, g uint32) []byte {
		return binary.AppendUvarint(append(b, op), uint64(g))
	}
	c := get(nil, 0x23, tick)
	c = append(c, 0x41, 0x01, 0x6b)
	c = get(c, 0x24, tick)
	c = get(c, 0x23, tick)
	c = append(c, 0x45, 0x04, 0x40)
	c = append(c, 0x41, 0x00, 0x40, 0x00, 0x1a)
	c = get(c, 0x23, stop)
	c = append(c, 0x04, 0x40, 0x00, 0x0b)
	c = append(append(c, 0x41), appendSLEB(nil, stopEvery)...)
	c = get(c, 0x24, tick)
	return append(c, 0x0b)
}

// checkCode adds check to the start of every function body and loop of
// a code section.
func checkCode(body, check []byte) ([]byte, error) {
	r := reader{b: body}
	n := r.u32()
	out := binary.AppendUvarint(make([]byte, 0, len(body)+len(body)/8), uint64(n))
	var fn []byte
	for ; n > 0 && r.err == nil; n-- {
		size := r.u32()
		f := reader{b: r.bytes(int(size))}
		if r.err != nil {
			break
		}
		fn = fn[:0]
		for locals := f.u32(); locals > 0 && f.err == nil; locals-- {
			f.u32()
			f.valType()
		}
		fn = append(fn, f.b[:f.i]...)
		fn = append(fn, check...)
		run := f.i // the instructions read and not yet copied start here
		for b := f.b; f.i < len(b) && f.err == nil; {
			// The most frequent instructions, with immediates of one
			// byte, are skipped here; instruction reads the others.
			switch op := b[f.i]; immediates[op] {
			case immNone:
				f.i++
				continue
			case immOne:
				if f.i+1 < len(b) && b[f.i+1] < 0x80 {
					f.i += 2
					continue
				}
			case immMemarg:
				if f.i+2 < len(b) && b[f.i+1] < 0x40 && b[f.i+2] < 0x80 {
					f.i += 3
					continue
				}
			}
			if f.instruction() {
				fn = append(append(fn, b[run:f.i]...), check...)
				run = f.i
			}
		}
		if f.err != nil {
			return nil, f.err
		}
		fn = append(fn, f.b[run:]...)
		out = binary.AppendUvarint(out, uint64(len(fn)))
		out = append(out, fn...)
	}
	if r.err == nil && !r.done() {
		r.fail(errors.New("bytes after the functions"))
	}
	return out, r.err
}

// appendSLEB appends v as a signed LEB128 number.
func appendSLEB(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// reader reads a module's bytes; its first error stops it.
type reader struct {
	b   []byte
	i   int
	err error
}

var errShort = errors.New("unexpected end")

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.i = len(r.b)
}

func (r *reader) done() bool { return r.i >= len(r.b) }

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.fail(errShort)
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || n > len(r.b)-r.i {
		r.fail(errShort)
		return nil
	}
	b := r.b[r.i : r.i+n]
	r.i += n
	return b
}

// leb skips a LEB128 number of at most max bytes and returns its low
// bits (the whole of an unsigned one).
func (r *reader) leb(max int) uint64 {
	var v uint64
	for k := 0; k < max; k++ {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		if k < 10 {
			v |= uint64(c&0x7f) << (7 * k)
		}
		if c&0x80 == 0 {
			return v
		}
	}
	r.fail(errors.New("LEB128 number too long"))
	return 0
}

func (r *reader) u32() uint32 {
	v := r.leb(5)
	if v > 1<<32-1 {
		r.fail(errors.New("u32 out of range"))
	}
	return uint32(v)
}

func (r *reader) name() (string, bool) {
	n := r.u32()
	b := r.bytes(int(n))
	return string(b), r.err == nil
}

// valType reads a value type: numbers, vectors and the two reference
// types of WebAssembly 2 (typed references are refused).
func (r *reader) valType() {
	switch t := r.byte(); t {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f, 0x69:
	default:
		r.fail(fmt.Errorf("value type 0x%02x", t))
	}
}

func (r *reader) limits() {
	flags := r.byte()
	if flags > 0x07 {
		r.fail(fmt.Errorf("limits flags 0x%02x", flags))
		return
	}
	r.leb(10)
	if flags&1 != 0 {
		r.leb(10)
	}
}

func (r *reader) memarg() {
	align := r.u32()
	if align&0x40 != 0 { // multiple memories: the memory's index
		r.u32()
	}
	r.leb(10)
}

// instruction skips one instruction, and says whether it starts a loop.
func (r *reader) instruction() (loop bool) {
	op := r.byte()
	switch {
	case op == 0x03: // loop
		r.leb(5) // its block type
		return true
	case op == 0x02 || op == 0x04 || op == 0x06: // block, if, try
		r.leb(5)
	case op == 0x0e: // br_table
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			r.u32()
		}
		r.u32()
	case op == 0x11 || op == 0x13: // call_indirect, return_call_indirect
		r.u32()
		r.u32()
	case op == 0x1c: // select with types
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			r.valType()
		}
	case op == 0x1f: // try_table
		r.leb(5)
		for n := r.u32(); n > 0 && r.err == nil; n-- {
			switch kind := r.byte(); kind {
			case 0x00, 0x01: // catch, catch_ref: a tag and a label
				r.u32()
				r.u32()
			case 0x02, 0x03: // catch_all, catch_all_ref: a label
				r.u32()
			default:
				r.fail(fmt.Errorf("catch kind 0x%02x", kind))
			}
		}
	case op >= 0x28 && op <= 0x3e: // loads and stores
		r.memarg()
	case op == 0x41 || op == 0x42: // i32.const, i64.const
		r.leb(10)
	case op == 0x43:
		r.bytes(4)
	case op == 0x44:
		r.bytes(8)
	case op == 0xd0: // ref.null: a heap type
		r.leb(5)
	case op == 0xfc:
		r.prefixFC()
	case op == 0xfd:
		r.prefixFD()
	case op == 0xfe:
		r.prefixFE()
	case oneIndex[op]:
		r.u32()
	case op <= 0x01 || op == 0x05 || op == 0x0a || op == 0x0b || op == 0x0f || op == 0x19 ||
		op == 0x1a || op == 0x1b || op >= 0x45 && op <= 0xc4 || op == 0xd1:
		// No immediate.
	default:
		r.fail(fmt.Errorf("opcode 0x%02x", op))
	}
	return false
}

// How checkCode skips an instruction of each opcode: immNone, it has no
// immediate; immOne, one LEB128 number; immMemarg, a load's or store's
// alignment and offset; immOther, instruction reads it (loop, and those
// of other immediates). The first two skip only a number of one byte,
// and the third only an alignment below 0x40 (one memory) and an offset
// of one byte: instruction reads the rest, with its checks.
const (
	immOther = iota
	immNone
	immOne
	immMemarg
)

var immediates = func() (t [256]byte) {
	for op := range 256 {
		switch {
		case op <= 0x01 || op == 0x05 || op == 0x0a || op == 0x0b || op == 0x0f || op == 0x19 ||
			op == 0x1a || op == 0x1b || op >= 0x45 && op <= 0xc4 || op == 0xd1:
			t[op] = immNone
		case oneIndex[op] || op == 0x02 || op == 0x04 || op == 0x06 || op == 0x41 || op == 0x42 || op == 0xd0:
			t[op] = immOne
		case op >= 0x28 && op <= 0x3e:
			t[op] = immMemarg
		}
	}
	return t
}()

// oneIndex are the opcodes with one index (a label, function, local,
// global, table, tag or memory) as their immediate.
var oneIndex = [256]bool{
	0x07: true, 0x08: true, 0x09: true, // catch, throw, rethrow
	0x0c: true, 0x0d: true, // br, br_if
	0x10: true, 0x12: true, // call, return_call
	0x18: true,                                                 // delegate
	0x20: true, 0x21: true, 0x22: true, 0x23: true, 0x24: true, // locals, globals
	0x25: true, 0x26: true, // table.get, table.set
	0x3f: true, 0x40: true, // memory.size, memory.grow
	0xd2: true, // ref.func
}

// prefixFC skips the rest of a 0xfc instruction: saturating truncation,
// bulk memory and tables.
func (r *reader) prefixFC() {
	switch op := r.u32(); {
	case op <= 7:
	case op == 8, op == 10, op == 12, op == 14: // memory.init, memory.copy, table.init, table.copy
		r.u32()
		r.u32()
	case op == 9, op == 11, op == 13, op >= 15 && op <= 17:
		r.u32()
	default:
		r.fail(fmt.Errorf("opcode 0xfc %d", op))
	}
}

// prefixFD skips the rest of a vector instruction.
func (r *reader) prefixFD() {
	switch op := r.u32(); {
	case op <= 11 || op == 92 || op == 93: // loads and stores
		r.memarg()
	case op == 12 || op == 13: // v128.const, i8x16.shuffle
		r.bytes(16)
	case op >= 21 && op <= 34: // lanes
		r.byte()
	case op >= 84 && op <= 91: // lane loads and stores
		r.memarg()
		r.byte()
	case op <= 0x113:
	default:
		r.fail(fmt.Errorf("opcode 0xfd %d", op))
	}
}

// prefixFE skips the rest of an atomic instruction.
func (r *reader) prefixFE() {
	switch op := r.u32(); {
	case op == 3: // atomic.fence
		r.byte()
	case op <= 2 || op >= 0x10 && op <= 0x4e:
		r.memarg()
	default:
		r.fail(fmt.Errorf("opcode 0xfe %d", op))
	}
}
