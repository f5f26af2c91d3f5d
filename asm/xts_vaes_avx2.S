// AES-XTS (IEEE 1619) data-unit kernel on VAES + VPCLMULQDQ with 256-bit registers.
// Hand-written twin of the intrinsics kernel in src/xts/kernel.rs on 256-bit registers.
//
//   void <prefix>xts_vaes_avx2_encrypt(const u8 *keys, size_t rounds, const u8 t0[16],
//                                      const u8 *src, u8 *dst, size_t len);
//   void <prefix>xts_vaes_avx2_decrypt(same arguments);
//
// keys: (rounds + 1) round keys of 16 bytes (encryption keys, or the equivalent-inverse-
// cipher keys for decryption); rounds: 10, 12 or 14; t0: the first tweak, already
// encrypted with Key2; 16 <= len <= 2^24; src == dst or the two do not overlap.
//
// Pseudo-code:
//   T[j] = t0 * x^j in GF(2^128) (little-endian, x^128 = x^7 + x^2 + x + 1)
//   m = len / 16 full blocks; r = len % 16; n = (r == 0) ? m : m - 1 plain XTS blocks
//   for each group of 16 blocks (8 ymm, two blocks each, 8 independent AES chains):
//       s = P ^ T ^ K0;  rounds 1..R-1;  C = aeslast(s, K_R ^ T)   // output XOR folded
//       meanwhile the next group's tweaks T * x^16 (a byte shift, and the two top bytes
//       times 0x87 with one carry-less multiply): with the whitening for AES-128, between
//       the middle rounds for AES-192/256 (room between the rounds)
//   remaining n % 16 blocks: groups of 8, 4, 2 blocks, then 1 block
//   if r != 0 (ciphertext stealing), with A, B = T[m-1], T[m] (encrypt) or T[m], T[m-1]
//   (decrypt):
//       X = XTS_A(block m-1);  out[m*16 .. m*16+r] = X[0..r]
//       out[(m-1)*16 ..] = XTS_B(in[m*16 .. m*16+r] || X[r..16])
//
// Lengths and counts are public; nothing branches on or indexes by key or data bytes.
// Round keys are broadcast to both lanes straight from the caller's schedule; the
// 32-byte-aligned stack frame holds tweak material and is zeroed before returning, as
// are all vector registers and the caller-saved general-purpose ones.

#include "simdcrypt_asm.h"

.intel_syntax noprefix

// Stack frame (offsets from the 32-byte-aligned rsp).
// LK: the 8 ymm of (tweak ^ last key) of the current main-loop group.
.set LK, 0
// TW: the tweaks of the next 16 blocks (ymm i = blocks 2i, 2i+1), plus a 17th.
.set TW, 256
// BUF: the block being stolen from.
.set BUF, 528
.set FRAME, 544
.if FRAME != 32 * 17
.error "the wipe at the end stores 17 ymm"
.endif

.section .rodata
.p2align 5
.Lxts_poly:
    .quad 0x87, 0, 0x87, 0
// Per-qword shift counts for the first tweaks: ymm i lanes are t0 * x^2i, t0 * x^(2i+1).
.Lxts_sll:
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
    .quad 2 * \i, 2 * \i, 2 * \i + 1, 2 * \i + 1
.endr
.Lxts_srl:
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
    .quad 64 - 2 * \i, 64 - 2 * \i, 63 - 2 * \i, 63 - 2 * \i
.endr

.text

// dst = src * x^16 per lane: the byte shift, plus the two top bytes times 0x87 (one
// carry-less multiply; poly holds 0x87 in each low qword).
.macro MUL16 dst, src, poly, t
    vpsrldq     \t, \src, 14
    vpslldq     \dst, \src, 2
    vpclmulqdq  \t, \t, \poly, 0x00
    vpxor       \dst, \dst, \t
.endm

// One AES round with key slot `slot` (r11 + 16 slot = key slot - 14 + R) on n (1, 2, 4
// or 8) ymm states ymm0...
.macro KROUND op, slot, n
    vbroadcasti128 ymm8, XMMWORD PTR [r11 + 16 * (\slot)]
    \op         ymm0, ymm0, ymm8
.if \n > 1
    \op         ymm1, ymm1, ymm8
.endif
.if \n > 2
    \op         ymm2, ymm2, ymm8
    \op         ymm3, ymm3, ymm8
.endif
.if \n > 4
    \op         ymm4, ymm4, ymm8
    \op         ymm5, ymm5, ymm8
    \op         ymm6, ymm6, ymm8
    \op         ymm7, ymm7, ymm8
.endif
.endm

// Main loop: advance the stored tweaks of ymm i by x^16.
.macro TWUPD i
    vmovdqa     ymm14, YMMWORD PTR [rsp + TW + 32 * \i]
    MUL16       ymm15, ymm14, ymm11, ymm13
    vmovdqa     YMMWORD PTR [rsp + TW + 32 * \i], ymm15
.endm

// Rounds 1 .. R-1 on n ymm states; esi = R. With upd, the tweak update of ymm c follows
// middle round c.
.macro ROUNDS op, n, upd
    cmp         esi, 12
    jb          8f
    je          7f
    KROUND      \op, 1, \n
    KROUND      \op, 2, \n
7:
    KROUND      \op, 3, \n
    KROUND      \op, 4, \n
8:
.irp c, 0, 1, 2, 3, 4, 5, 6, 7, 8
    KROUND      \op, (5+\c), \n
.if \upd
.if \c < 8
    TWUPD       \c
.endif
.endif
.endr
.endm

// Main loop whitening of ymm i: s = P ^ T ^ K0, LK[i] = T ^ K_R; with inl, also the
// tweaks of the next group, TW[i] = T * x^16.
.macro MWHITEN i, inl
    vmovdqa     ymm12, YMMWORD PTR [rsp + TW + 32 * \i]
    vpxor       ymm\i, ymm9, YMMWORD PTR [rcx + 32 * \i]
    vpxor       ymm\i, ymm\i, ymm12
    vpxor       ymm13, ymm12, ymm10
    vmovdqa     YMMWORD PTR [rsp + LK + 32 * \i], ymm13
.if \inl
    MUL16       ymm15, ymm12, ymm11, ymm14
    vmovdqa     YMMWORD PTR [rsp + TW + 32 * \i], ymm15
.endif
.endm

.macro MFINAL oplast, i
    \oplast     ymm\i, ymm\i, YMMWORD PTR [rsp + LK + 32 * \i]
    vmovdqu     YMMWORD PTR [r8 + 32 * \i], ymm\i
.endm

// Groups of 16 blocks while rax >= 16 (rax >= 16 on entry).
.macro MAINLOOP op, oplast, inl
    .p2align 4
3:
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
    MWHITEN     \i, \inl
.endr
    ROUNDS      \op, 8, (1 - \inl)
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
    MFINAL      \oplast, \i
.endr
    add         rcx, 256
    add         r8, 256
    sub         rax, 16
    cmp         rax, 16
    jae         3b
.endm

// Tail whitening: state s, tweak register l (becomes T ^ K_R), tweaks at r10 + off.
.macro TWHITEN s, l, off
    vmovdqu     \l, YMMWORD PTR [r10 + \off]
    vpxor       \s, ymm9, YMMWORD PTR [rcx + \off]
    vpxor       \s, \s, \l
    vpxor       \l, \l, ymm10
.endm

.macro TFINAL oplast, s, l, off
    \oplast     \s, \s, \l
    vmovdqu     YMMWORD PTR [r8 + \off], \s
.endm

// 2n blocks (n = 1, 2 or 4 ymm) with the tweaks at r10; advances r10, rcx, r8.
.macro TAILN op, oplast, n
    TWHITEN     ymm0, ymm4, 0
.if \n > 1
    TWHITEN     ymm1, ymm5, 32
.endif
.if \n > 2
    TWHITEN     ymm2, ymm6, 64
    TWHITEN     ymm3, ymm7, 96
.endif
    ROUNDS      \op, \n, 0
    TFINAL      \oplast, ymm0, ymm4, 0
.if \n > 1
    TFINAL      \oplast, ymm1, ymm5, 32
.endif
.if \n > 2
    TFINAL      \oplast, ymm2, ymm6, 64
    TFINAL      \oplast, ymm3, ymm7, 96
.endif
    add         r10, 32 * \n
    add         rcx, 32 * \n
    add         r8, 32 * \n
.endm

// One block: xmm0 = XTS(xmm0) under the tweak in xmm4 (clobbers xmm5).
.macro ONE op, oplast
    vpxor       xmm0, xmm0, xmm4
    vpxor       xmm0, xmm0, xmm9
    cmp         esi, 12
    jb          8f
    je          7f
    \op         xmm0, xmm0, XMMWORD PTR [r11 + 16 * 1]
    \op         xmm0, xmm0, XMMWORD PTR [r11 + 16 * 2]
7:
    \op         xmm0, xmm0, XMMWORD PTR [r11 + 16 * 3]
    \op         xmm0, xmm0, XMMWORD PTR [r11 + 16 * 4]
8:
.irp s, 5, 6, 7, 8, 9, 10, 11, 12, 13
    \op         xmm0, xmm0, XMMWORD PTR [r11 + 16 * \s]
.endr
    vpxor       xmm5, xmm4, xmm10
    \oplast     xmm0, xmm0, xmm5
.endm

// rdi = keys, rsi = rounds, rdx = t0, rcx = src, r8 = dst, r9 = len.
// Each entry in a section of its own, which the linker drops where a program never calls
// it (an encrypt-only program carries no decryption code).
.macro XTS_FUNC name, op, oplast, dec
.section .text.\name, "ax", @progbits
FUNC_GLOBAL(\name)
.p2align 5
\name:
    .cfi_startproc
    endbr64
    // Callers guarantee len >= 16; anything shorter is left untouched.
    cmp         r9, 16
    jb          0f
    push        rbp
    .cfi_def_cfa_offset 16
    .cfi_offset rbp, -16
    mov         rbp, rsp
    .cfi_def_cfa_register rbp
    and         rsp, -32
    sub         rsp, FRAME

    // r11 + 16 * s = key s - 14 + R: the last nine middle rounds always use s = 5..13.
    mov         rax, rsi
    shl         rax, 4
    lea         r11, [rdi + rax - 224]
    vbroadcasti128 ymm9, XMMWORD PTR [rdi]
    vbroadcasti128 ymm10, XMMWORD PTR [rdi + rax]
    vmovdqa     ymm11, YMMWORD PTR [rip + .Lxts_poly]

    // The first 16 tweaks, all from t0 at once: ymm i = (t0 * x^2i, t0 * x^(2i+1)), with
    // per-lane shift counts.
    vbroadcasti128 ymm15, XMMWORD PTR [rdx]
.irp i, 0, 1, 2, 3, 4, 5, 6, 7
    vpsrlvq     ymm12, ymm15, YMMWORD PTR [rip + .Lxts_srl + 32 * \i]
    vpsllvq     ymm\i, ymm15, YMMWORD PTR [rip + .Lxts_sll + 32 * \i]
    vpclmulqdq  ymm13, ymm12, ymm11, 0x01
    vpslldq     ymm12, ymm12, 8
    vpxor       ymm\i, ymm\i, ymm12
    vpxor       ymm\i, ymm\i, ymm13
    vmovdqa     YMMWORD PTR [rsp + TW + 32 * \i], ymm\i
.endr

    // rax = blocks for plain XTS.
    mov         rax, r9
    shr         rax, 4
    test        r9, 15
    jz          2f
    dec         rax
2:
    cmp         rax, 16
    jb          4f
    // AES-128 leaves the least room between rounds: there the tweak update goes with the
    // whitening; with 12 or 14 rounds it goes between the middle rounds.
    cmp         esi, 10
    jne         9f
    MAINLOOP    \op, \oplast, 1
    jmp         4f
9:
    MAINLOOP    \op, \oplast, 0
4:
    lea         r10, [rsp + TW]
    test        eax, 8
    jz          5f
    TAILN       \op, \oplast, 4
5:
    test        eax, 4
    jz          5f
    TAILN       \op, \oplast, 2
5:
    test        eax, 2
    jz          5f
    TAILN       \op, \oplast, 1
5:
    test        eax, 1
    jz          5f
    vmovdqu     xmm0, XMMWORD PTR [rcx]
    vmovdqu     xmm4, XMMWORD PTR [r10]
    ONE         \op, \oplast
    vmovdqu     XMMWORD PTR [r8], xmm0
    add         r10, 16
    add         rcx, 16
    add         r8, 16
5:
    test        r9, 15
    jz          6f

    // Ciphertext stealing. r10 -> T[m-1]; T[m] may be the 17th slot.
    vmovdqa     xmm12, XMMWORD PTR [rsp + TW]
    MUL16       xmm13, xmm12, xmm11, xmm14
    vmovdqa     XMMWORD PTR [rsp + TW + 256], xmm13
    vmovdqu     xmm0, XMMWORD PTR [rcx]
.if \dec
    vmovdqu     xmm4, XMMWORD PTR [r10 + 16]
.else
    vmovdqu     xmm4, XMMWORD PTR [r10]
.endif
    ONE         \op, \oplast
    vmovdqa     XMMWORD PTR [rsp + BUF], xmm0
    // Swap the tail bytes: out[16 + i] = BUF[i], BUF[i] = in[16 + i].
    and         r9, 15
    xor         edx, edx
1:
    movzx       eax, BYTE PTR [rcx + rdx + 16]
    movzx       edi, BYTE PTR [rsp + BUF + rdx]
    mov         BYTE PTR [r8 + rdx + 16], dil
    mov         BYTE PTR [rsp + BUF + rdx], al
    inc         rdx
    cmp         rdx, r9
    jb          1b
    vmovdqa     xmm0, XMMWORD PTR [rsp + BUF]
.if \dec
    vmovdqu     xmm4, XMMWORD PTR [r10]
.else
    vmovdqu     xmm4, XMMWORD PTR [r10 + 16]
.endif
    ONE         \op, \oplast
    vmovdqu     XMMWORD PTR [r8], xmm0

6:
    // Wipe the frame (round keys, tweaks) and every vector register.
    vpxor       xmm0, xmm0, xmm0
.irp o, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
    vmovdqa     YMMWORD PTR [rsp + 32 * \o], ymm0
.endr
.irp r, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    vpxor       xmm\r, xmm\r, xmm\r
.endr
    vzeroupper
    // The caller-saved general-purpose registers, all used: eax and edi carry the stolen
    // tail's bytes, r11 and rdi address the round keys, the rest addresses and counts.
    // 32-bit zero idioms clear the whole registers.
.irp r, eax, ecx, edx, esi, edi, r8d, r9d, r10d, r11d
    xor         \r, \r
.endr
    mov         rsp, rbp
    .cfi_def_cfa_register rsp
    pop         rbp
    .cfi_def_cfa_offset 8
0:
    ret
    .cfi_endproc
.size \name, . - \name
.endm

XTS_FUNC SYM(xts_vaes_avx2_encrypt), vaesenc, vaesenclast, 0
XTS_FUNC SYM(xts_vaes_avx2_decrypt), vaesdec, vaesdeclast, 1

GNU_PROPERTY_NOTE
