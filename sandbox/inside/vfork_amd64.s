//go:build linux

#include "textflag.h"

// func vfork(trap, flags uintptr) (pid, errno uintptr)
//
// clone(flags, 0, 0, 0, 0) with CLONE_VM|CLONE_VFORK: the child runs on
// the parent's stack while the parent waits, until the child executes a
// program or exits. The return address is kept in a register across the
// call, not on the stack, which the child's calls overwrite; the results
// are written after it, by each process for itself.
TEXT ·vfork(SB),NOSPLIT|NOFRAME,$0-32
	MOVQ	flags+8(FP), DI
	MOVQ	$0, SI
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
	MOVQ	$-1, pid+16(FP)
	NEGQ	AX
	MOVQ	AX, errno+24(FP)
	RET
ok:
	MOVQ	AX, pid+16(FP)
	MOVQ	$0, errno+24(FP)
	RET
