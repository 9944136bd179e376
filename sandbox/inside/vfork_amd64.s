//go:build linux

#include "textflag.h"

// func vfork(trap, a1, a2 uintptr) (pid, errno uintptr)
//
// clone(a1, a2, 0, 0, 0) or clone3(a1, a2), with CLONE_VM|CLONE_VFORK: the child runs on
// the parent's stack while the parent waits, until the child executes a
// program or exits. The return address is kept in a register across the
// call, not on the stack, which the child's calls overwrite; the results
// are written after it, by each process for itself.
TEXT ·vfork(SB),NOSPLIT|NOFRAME,$0-40
	MOVQ	a1+8(FP), DI
	MOVQ	a2+16(FP), SI
	MOVQ	$0, DX
	MOVQ	$0, R10
	MOVQ	$0, R8
	MOVQ	$0, R9
	MOVQ	trap+0(FP), AX
	POPQ	R12
	SYSCALL
	PUSHQ	R12
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, pid+24(FP)
	NEGQ	AX
	MOVQ	AX, errno+32(FP)
	RET
ok:
	MOVQ	AX, pid+24(FP)
	MOVQ	$0, errno+32(FP)
	RET
