/*
 * SHA-1 block compression with the x86 SHA extensions (SHA-NI), one stream and two
 * interleaved streams. GNU as, Intel syntax, x86-64 SysV ABI.
 *
 * Register form used by the SHA instructions:
 *   ABCD  = xmm with A in dword 3, B in dword 2, C in dword 1, D in dword 0
 *   E     = xmm with E in dword 3, zero elsewhere (before the first W is added)
 *   quad q = message words W[4q..4q+3], W[4q] in dword 3 (a full 16-byte byte reversal of
 *            the big-endian block bytes gives exactly this order)
 *
 * Per 64-byte block: the 20 groups of four rounds (sha1nexte, sha1rnds4) of the
 * intrinsics kernel, src/arch/x86_64/sha_ni.rs.
 * Message schedule, two equivalent forms:
 *   in registers (SHANI_*): quad q = sha1msg2(sha1msg1(q-4, q-3) ^ q-2, q-1), spread over
 *     the groups: at group g, msg2 finishes quad g+1, msg1 starts quad g+3, pxor adds
 *     quad g to quad g+2, so each piece is ready when its group needs it;
 *   in memory (SCHED / SCHED_Q1 + SHANIM_*): quads 4..7 as above, quads 8..19 with
 *     plain SSE as rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]), into a stack buffer read
 *     by sha1nexte; the next block's quads are computed during the current block's
 *     rounds (one per group), so the work is spread evenly instead of in bursts.
 *
 * compress2 gives one stream each form: stream A keeps the in-register SHA schedule,
 * stream B the SSE one (why: docs/design.md, "SHA-1 schedule forms").
 *
 * void <prefix>sha1_shani_compress(uint32_t st[5], const uint8_t *blocks, size_t n)
 * void <prefix>sha1_shani_compress2(uint32_t sa[5], const uint8_t *ba,
 *                                   uint32_t sb[5], const uint8_t *bb, size_t n)
 *   st/sa/sb: H0..H4 as native u32; blocks: n raw 64-byte message blocks (each stream
 *   has n blocks). Touches xmm registers, rsp-aligned stack below the frame and rbp
 *   (saved and restored); no other callee-saved register.
 */

#include "simdcrypt_asm.h"

        .intel_syntax noprefix

        .section .rodata
        .balign 16
.Lsha1ni_bswap128:
        .quad   0x08090a0b0c0d0e0f, 0x0001020304050607

        .text

/* Stream `p` uses the register symbols pABCD, pE0 (group input E), pE1 (copy of ABCD for
   the next group's E) and pM0..pM3 (pM0 = quad g at group g). */

.macro SHANI_PRE p, g
  .if \g == 0
        paddd           \p\()E0, \p\()M0
  .else
        sha1nexte       \p\()E0, \p\()M0
  .endif
        movdqa          \p\()E1, \p\()ABCD
  .if \g >= 3 && \g <= 18
        sha1msg2        \p\()M1, \p\()M0
  .endif
.endm

.macro SHANI_RND p, g
        sha1rnds4       \p\()ABCD, \p\()E0, (\g / 5)
.endm

.macro SHANI_POST p, g
  .if \g >= 1 && \g <= 16
        sha1msg1        \p\()M3, \p\()M0
  .endif
  .if \g >= 2 && \g <= 17
        pxor            \p\()M2, \p\()M0
  .endif
.endm

/* Rename after a group: the message quads move down one slot, the two E roles swap.
   After 20 groups every name is back on its original register. */
.macro SHANI_ROT p
        .set    \p\()TMP, \p\()M0
        .set    \p\()M0, \p\()M1
        .set    \p\()M1, \p\()M2
        .set    \p\()M2, \p\()M3
        .set    \p\()M3, \p\()TMP
        .set    \p\()TMP, \p\()E0
        .set    \p\()E0, \p\()E1
        .set    \p\()E1, \p\()TMP
.endm

/* Load a block's four quads, byte-reversed, into m0..m3. */
.macro LOAD_QUADS ptr, m0, m1, m2, m3
        movdqu          \m0, [\ptr]
        movdqu          \m1, [\ptr + 16]
        movdqu          \m2, [\ptr + 32]
        movdqu          \m3, [\ptr + 48]
        pshufb          \m0, BSWAP
        pshufb          \m1, BSWAP
        pshufb          \m2, BSWAP
        pshufb          \m3, BSWAP
.endm

/* Load state from `ptr` into pABCD / pE0 (SHA register form). */
.macro SHANI_LOAD_STATE p, ptr
        movdqu          \p\()ABCD, [\ptr]
        movd            \p\()E0, dword ptr [\ptr + 16]
        pshufd          \p\()ABCD, \p\()ABCD, 0x1b
        pslldq          \p\()E0, 12
.endm

.macro SHANI_STORE_STATE p, ptr
        pshufd          \p\()ABCD, \p\()ABCD, 0x1b
        movdqu          [\ptr], \p\()ABCD
        pextrd          dword ptr [\ptr + 16], \p\()E0, 3
.endm

/* ------------------------------------------------------------------------------------ */
/* Message schedule of one block into a 320-byte aligned buffer (quad q at buf + 16 q),
   SHA register form. Uses the symbols BSWAP, SX, SQ1, SQ2, SY (xmm).
     q = 0..3:   byte-reversed block quads
     q = 4..7:   sha1msg2(sha1msg1(q-4, q-3) ^ q-2, q-1)
     q = 8..19:  rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) with plain SSE, where the
                 W[t-6] quad is palignr(quad q-2, quad q-1, 8)
   The rol2 form keeps most of the schedule off the SHA unit, whose sha1msg2 is slow on
   some cores (a 4-cycle reciprocal throughput measured on Emerald Rapids, sharing the
   unit with sha1rnds4). SQ1 / SQ2 always hold quads q-1 / q-2. */

.macro SCHED_ROT
        .set    STMP, SQ2
        .set    SQ2, SQ1
        .set    SQ1, SX
        .set    SX, STMP
.endm

/* Quad `q` (a symbol) of the schedule, alone: SCHED's quads 4..19, and every quad when
   the schedule of the next block is spread over the rounds of the current one. */
.macro SCHED_Q1 buf, ptr, q
  .if \q < 2
        movdqu          SX, [\ptr + 16 * \q]
        pshufb          SX, BSWAP
        movdqa          [\buf + 16 * \q], SX
  .elseif \q == 2
        movdqu          SQ2, [\ptr + 32]
        pshufb          SQ2, BSWAP
        movdqa          [\buf + 32], SQ2
  .elseif \q == 3
        movdqu          SQ1, [\ptr + 48]
        pshufb          SQ1, BSWAP
        movdqa          [\buf + 48], SQ1
  .elseif \q < 8
        movdqa          SX, [\buf + 16 * (\q - 4)]
        sha1msg1        SX, [\buf + 16 * (\q - 3)]
        pxor            SX, SQ2
        sha1msg2        SX, SQ1
        movdqa          [\buf + 16 * \q], SX
        SCHED_ROT
  .else
        movdqa          SX, [\buf + 16 * (\q - 8)]
        pxor            SX, [\buf + 16 * (\q - 7)]
        pxor            SX, [\buf + 16 * (\q - 4)]
        movdqa          SY, SQ2
        palignr         SY, SQ1, 8
        pxor            SX, SY
        movdqa          SY, SX
        psrld           SY, 30
        pslld           SX, 2
        por             SX, SY
        movdqa          [\buf + 16 * \q], SX
        SCHED_ROT
  .endif
.endm

/* The whole schedule: quads 0..3 loaded together, then SCHED_Q1 for the others. */
.macro SCHED buf, ptr
        LOAD_QUADS      \ptr, SX, SY, SQ2, SQ1
        movdqa          [\buf], SX
        movdqa          [\buf + 16], SY
        movdqa          [\buf + 32], SQ2
        movdqa          [\buf + 48], SQ1
        .set    Q, 4
        .rept   16
        SCHED_Q1        \buf, \ptr, Q
        .set    Q, Q + 1
        .endr
.endm

/* Four rounds of stream `p` whose schedule sits in memory at `buf` (quad g at
   buf + 16 g): same as SHANI_PRE / SHANI_RND without the in-register schedule. */
.macro SHANIM_PRE p, g, buf
  .if \g == 0
        paddd           \p\()E0, [\buf]
  .else
        sha1nexte       \p\()E0, [\buf + 16 * \g]
  .endif
        movdqa          \p\()E1, \p\()ABCD
.endm

.macro SHANIM_RND p, g
        sha1rnds4       \p\()ABCD, \p\()E0, (\g / 5)
        .set    \p\()TMP, \p\()E0
        .set    \p\()E0, \p\()E1
        .set    \p\()E1, \p\()TMP
.endm

/* Zeroes xmm0..xmm15: the chaining values and message words (key-derived inside HMAC)
   are not left behind in registers. Zero idioms: no execution unit, no dependency. */
.macro CLEAR_XMM
  .irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
        pxor            xmm\r, xmm\r
  .endr
.endm

/* Zeroes the caller-saved general-purpose registers a function used (their 32-bit names:
   a 32-bit xor is a zero idiom and clears the whole register). They hold only addresses
   and counts here (every key-derived value is in xmm registers or the stack), but a
   function that returns none of them leaves nothing of the call behind. The schedule
   buffers on the stack are left to the caller's stack wipe (wipe::stack). */
.macro CLEAR_GPRS regs:vararg
  .irp r, \regs
        xor             \r, \r
  .endr
.endm

/* ------------------------------------------------------------------------------------ */
/* One stream. rdi = state, rsi = blocks, rdx = number of blocks. The schedule (SCHED,
   mostly plain SSE) goes to one of two stack buffers: the first block's before the
   loop, every next block's one quad per group during the rounds of the current block
   (the last block has its own copy of the loop body, without schedule work). The SHA unit is left to sha1rnds4 /
   sha1nexte plus four sha1msg1/sha1msg2 per block. */

/* One block; with `sched`, also the next block's schedule into r10 (its block at
   rsi + 64), one quad per group. */
.macro SHANI1_BLOCK sched
        movdqa          SAVE_ABCD, AABCD
        movdqa          SAVE_E, AE0
        .set    G, 0
        .rept   20
        SHANIM_PRE      A, G, r9
        SHANIM_RND      A, G
  .if \sched
        SCHED_Q1        r10, rsi+64, G
  .endif
        .set    G, G + 1
        .endr
        sha1nexte       AE0, SAVE_E
        paddd           AABCD, SAVE_ABCD
.endm

        .section .text.sha1_shani_compress, "ax", @progbits  /* its own: dropped where unused */
        FUNC_GLOBAL(SYM(sha1_shani_compress))
        .balign 32
SYM(sha1_shani_compress):
        .cfi_startproc
        endbr64
        .set    AABCD, xmm0
        .set    AE0, xmm1
        .set    AE1, xmm2
        .set    BSWAP, xmm6
        .set    SX, xmm7
        .set    SQ1, xmm8
        .set    SQ2, xmm9
        .set    SY, xmm10
        .set    SAVE_ABCD, xmm11
        .set    SAVE_E, xmm12

        test            rdx, rdx
        jz              .Lshani1_ret
        push            rbp
        .cfi_def_cfa_offset 16
        .cfi_offset     rbp, -16
        mov             rbp, rsp
        .cfi_def_cfa_register rbp
        sub             rsp, 640
        and             rsp, -16
        mov             r9, rsp                 /* schedule of the current block */
        lea             r10, [rsp + 320]        /* schedule of the next block */
        SHANI_LOAD_STATE A, rdi
        movdqa          BSWAP, [rip + .Lsha1ni_bswap128]
        SCHED           r9, rsi

        .balign 16
.Lshani1_loop:
        cmp             rdx, 1
        je              .Lshani1_last
        SHANI1_BLOCK    1
        add             rsi, 64
        xchg            r9, r10
        dec             rdx
        jmp             .Lshani1_loop

        /* The last block: nothing left to schedule. */
.Lshani1_last:
        SHANI1_BLOCK    0

        SHANI_STORE_STATE A, rdi
        CLEAR_XMM
        CLEAR_GPRS      esi, edi, edx, r9d, r10d
        mov             rsp, rbp
        .cfi_def_cfa_register rsp
        pop             rbp
        .cfi_def_cfa_offset 8
.Lshani1_ret:
        ret
        .cfi_endproc
        .size   SYM(sha1_shani_compress), . - SYM(sha1_shani_compress)

/* ------------------------------------------------------------------------------------ */
/* Two streams. rdi = state A, rsi = blocks A, rdx = state B, rcx = blocks B, r8 = n.
   Stream A keeps its schedule in registers on the SHA unit (sha1msg1/sha1msg2 spread over
   the groups); stream B uses the SSE schedule in two stack buffers, its next block's
   quads spread over the current groups as in the one-stream kernel. Splitting the
   schedule work this way keeps both the SHA unit and the vector ALUs busy instead of
   queueing all of it on one. Saved ABCD/E of both streams go to the stack. */

/* One block of each stream for compress2; with `sched`, also B's next block's schedule
   into r10 (its blocks at rcx + 64). */
.macro SHANI2_BLOCK sched
        movdqa          [rsp + 640], AABCD
        movdqa          [rsp + 656], AE0
        movdqa          [rsp + 672], BABCD
        movdqa          [rsp + 688], BE0
        LOAD_QUADS      rsi, AM0, AM1, AM2, AM3
        .set    G, 0
        .rept   20
        SHANI_PRE       A, G
        SHANIM_PRE      B, G, r9
        SHANI_RND       A, G
  .if \sched
        SCHED_Q1        r10, rcx+64, G
  .endif
        SHANIM_RND      B, G
        SHANI_POST      A, G
        SHANI_ROT       A
        .set    G, G + 1
        .endr
        sha1nexte       AE0, [rsp + 656]
        sha1nexte       BE0, [rsp + 688]
        paddd           AABCD, [rsp + 640]
        paddd           BABCD, [rsp + 672]
        add             rsi, 64
        add             rcx, 64
        xchg            r9, r10
.endm

        .section .text.sha1_shani_compress2, "ax", @progbits  /* its own: dropped where unused */
        FUNC_GLOBAL(SYM(sha1_shani_compress2))
        .balign 32
SYM(sha1_shani_compress2):
        .cfi_startproc
        endbr64
        .set    AABCD, xmm0
        .set    AE0, xmm1
        .set    AE1, xmm2
        .set    AM0, xmm3
        .set    AM1, xmm4
        .set    AM2, xmm5
        .set    AM3, xmm6
        .set    SX, xmm7
        .set    SQ1, xmm8
        .set    SQ2, xmm9
        .set    SY, xmm10
        .set    BABCD, xmm11
        .set    BE0, xmm12
        .set    BE1, xmm13
        .set    BSWAP, xmm14

        test            r8, r8
        jz              .Lshani2_ret
        push            rbp
        .cfi_def_cfa_offset 16
        .cfi_offset     rbp, -16
        mov             rbp, rsp
        .cfi_def_cfa_register rbp
        sub             rsp, 640 + 64
        and             rsp, -16
        mov             r9, rsp                 /* B schedule, current block */
        lea             r10, [rsp + 320]        /* B schedule, next block */
        SHANI_LOAD_STATE A, rdi
        SHANI_LOAD_STATE B, rdx
        movdqa          BSWAP, [rip + .Lsha1ni_bswap128]
        SCHED           r9, rcx

        .balign 16
.Lshani2_loop:
        cmp             r8, 1
        je              .Lshani2_last
        SHANI2_BLOCK    1
        dec             r8
        jmp             .Lshani2_loop

        /* The last block pair: nothing left to schedule. */
.Lshani2_last:
        SHANI2_BLOCK    0

        SHANI_STORE_STATE A, rdi
        SHANI_STORE_STATE B, rdx
        /* The saved chaining values of both streams, then every register used. */
        pxor            xmm15, xmm15
        movdqa          [rsp + 640], xmm15
        movdqa          [rsp + 656], xmm15
        movdqa          [rsp + 672], xmm15
        movdqa          [rsp + 688], xmm15
        CLEAR_XMM
        CLEAR_GPRS      ecx, edx, esi, edi, r8d, r9d, r10d
        mov             rsp, rbp
        .cfi_def_cfa_register rsp
        pop             rbp
        .cfi_def_cfa_offset 8
.Lshani2_ret:
        ret
        .cfi_endproc
        .size   SYM(sha1_shani_compress2), . - SYM(sha1_shani_compress2)

        GNU_PROPERTY_NOTE
