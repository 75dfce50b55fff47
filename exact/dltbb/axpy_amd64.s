#include "textflag.h"

// func axpyAVX(row, pr []float64, f float64)
//
// row[j] -= f*pr[j] for j < len(pr) (len(row) == len(pr)), four at a time with AVX:
// a multiply and a subtract per element (no fused multiply-add), each rounded as
// the Go loop rounds it.
TEXT ·axpyAVX(SB), NOSPLIT, $0-56
	MOVQ         row_base+0(FP), DI
	MOVQ         pr_base+24(FP), SI
	MOVQ         pr_len+32(FP), CX
	VBROADCASTSD f+48(FP), Y0
	XORQ         AX, AX
	MOVQ         CX, DX
	ANDQ         $-4, DX

loop4:
	CMPQ    AX, DX
	JGE     tail
	VMOVUPD (SI)(AX*8), Y1
	VMULPD  Y0, Y1, Y1
	VMOVUPD (DI)(AX*8), Y2
	VSUBPD  Y1, Y2, Y2
	VMOVUPD Y2, (DI)(AX*8)
	ADDQ    $4, AX
	JMP     loop4

tail:
	CMPQ   AX, CX
	JGE    done
	VMOVSD (SI)(AX*8), X1
	VMULSD X0, X1, X1
	VMOVSD (DI)(AX*8), X2
	VSUBSD X1, X2, X2
	VMOVSD X2, (DI)(AX*8)
	INCQ   AX
	JMP    tail

done:
	VZEROUPPER
	RET
