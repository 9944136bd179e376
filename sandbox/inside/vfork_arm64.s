//go:build linux

#include "textflag.h"

// func vfork(trap, a1, a2 uintptr) (pid, errno uintptr)
//
// clone(a1, a2, 0, 0, 0) or clone3(a1, a2), with CLONE_VM|CLONE_VFORK: the child runs on
// the parent's stack while the parent waits, until the child executes a
// program or exits. A leaf without a frame: the return address stays in
// the link register, which the child's calls do not reach in the
// parent; the results are written after the call, by each process for
// itself.
TEXT ·vfork(SB),NOSPLIT|NOFRAME,$0-40
	MOVD	a1+8(FP), R0
	MOVD	a2+16(FP), R1
	MOVD	$0, R2
	MOVD	$0, R3
	MOVD	$0, R4
	MOVD	$0, R5
	MOVD	trap+0(FP), R8
	SVC
	CMN	$4095, R0
	BCC	ok
	MOVD	$-1, R4
	MOVD	R4, pid+24(FP)
	NEG	R0, R0
	MOVD	R0, errno+32(FP)
	RET
ok:
	MOVD	R0, pid+24(FP)
	MOVD	ZR, errno+32(FP)
	RET
