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
 * Per 64-byte block (20 groups g = 0..19 of four rounds each, f = g / 5):
 *   save ABCD, E
 *   g = 0:  E0 = E + quad0                      (paddd)
 *   g > 0:  Ein = rol30(A of ABCD before group g-1) + quad g      (sha1nexte)
 *   copy ABCD (its A gives the next group's E)
 *   ABCD = four rounds of function f on ABCD with Ein              (sha1rnds4)
 *   message schedule, quad q >= 4:
 *     quad q = sha1msg2(sha1msg1(quad q-4, quad q-3) ^ quad q-2, quad q-1)
 *   spread over the groups: at group g, msg2 finishes quad g+1, msg1 starts quad g+3,
 *   pxor adds quad g to quad g+2, so each piece is ready when its group needs it.
 *   after g = 19: E = rol30(A before group 19) + saved E; ABCD += saved ABCD
 *
 * One stream is a chain of 20 sha1rnds4 per block (each needs the previous ABCD), so it
 * runs at the instruction's latency. compress2 interleaves two independent streams, which
 * fills the latency gaps of one with the work of the other.
 *
 * void simdcrypt_sha1_shani_compress(uint32_t st[5], const uint8_t *blocks, size_t n)
 * void simdcrypt_sha1_shani_compress2(uint32_t sa[5], const uint8_t *ba,
 *                                     uint32_t sb[5], const uint8_t *bb, size_t n)
 *   st/sa/sb: H0..H4 as native u32; blocks: n raw 64-byte message blocks (each stream
 *   has n blocks). Only xmm registers and rax/r9 are touched; no callee-saved register.
 */

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

/* Load a block into pM0..pM3 (byte-reversed quads). */
.macro SHANI_LOAD p, ptr
        movdqu          \p\()M0, [\ptr]
        movdqu          \p\()M1, [\ptr + 16]
        movdqu          \p\()M2, [\ptr + 32]
        movdqu          \p\()M3, [\ptr + 48]
        pshufb          \p\()M0, BSWAP
        pshufb          \p\()M1, BSWAP
        pshufb          \p\()M2, BSWAP
        pshufb          \p\()M3, BSWAP
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
/* One stream. rdi = state, rsi = blocks, rdx = number of blocks. */

        .globl  simdcrypt_sha1_shani_compress
        .type   simdcrypt_sha1_shani_compress, @function
        .balign 32
simdcrypt_sha1_shani_compress:
        .set    AABCD, xmm0
        .set    AE0, xmm1
        .set    AE1, xmm2
        .set    AM0, xmm3
        .set    AM1, xmm4
        .set    AM2, xmm5
        .set    AM3, xmm6
        .set    BSWAP, xmm7
        .set    SAVE_ABCD, xmm8
        .set    SAVE_E, xmm9

        test            rdx, rdx
        jz              .Lshani1_ret
        SHANI_LOAD_STATE A, rdi
        movdqa          BSWAP, [rip + .Lsha1ni_bswap128]

        .balign 16
.Lshani1_loop:
        movdqa          SAVE_ABCD, AABCD
        movdqa          SAVE_E, AE0
        SHANI_LOAD      A, rsi

        .set    G, 0
        .rept   20
        SHANI_PRE       A, G
        SHANI_RND       A, G
        SHANI_POST      A, G
        SHANI_ROT       A
        .set    G, G + 1
        .endr

        sha1nexte       AE0, SAVE_E
        paddd           AABCD, SAVE_ABCD
        add             rsi, 64
        dec             rdx
        jnz             .Lshani1_loop

        SHANI_STORE_STATE A, rdi
.Lshani1_ret:
        ret
        .size   simdcrypt_sha1_shani_compress, . - simdcrypt_sha1_shani_compress

/* ------------------------------------------------------------------------------------ */
/* Two streams. rdi = state A, rsi = blocks A, rdx = state B, rcx = blocks B, r8 = n.
   The saved ABCD/E of both streams live in 64 aligned bytes of the red zone (leaf
   function), addressed through r9. */

        .globl  simdcrypt_sha1_shani_compress2
        .type   simdcrypt_sha1_shani_compress2, @function
        .balign 32
simdcrypt_sha1_shani_compress2:
        .set    AABCD, xmm0
        .set    AE0, xmm1
        .set    AE1, xmm2
        .set    AM0, xmm3
        .set    AM1, xmm4
        .set    AM2, xmm5
        .set    AM3, xmm6
        .set    BABCD, xmm7
        .set    BE0, xmm8
        .set    BE1, xmm9
        .set    BM0, xmm10
        .set    BM1, xmm11
        .set    BM2, xmm12
        .set    BM3, xmm13
        .set    BSWAP, xmm14

        test            r8, r8
        jz              .Lshani2_ret
        lea             r9, [rsp - 72]
        and             r9, -16                 /* [r9, r9 + 64) lies in [rsp - 87, rsp - 8) */
        SHANI_LOAD_STATE A, rdi
        SHANI_LOAD_STATE B, rdx
        movdqa          BSWAP, [rip + .Lsha1ni_bswap128]

        .balign 16
.Lshani2_loop:
        movdqa          [r9], AABCD
        movdqa          [r9 + 16], AE0
        movdqa          [r9 + 32], BABCD
        movdqa          [r9 + 48], BE0
        SHANI_LOAD      A, rsi
        SHANI_LOAD      B, rcx

        .set    G, 0
        .rept   20
        SHANI_PRE       A, G
        SHANI_PRE       B, G
        SHANI_RND       A, G
        SHANI_RND       B, G
        SHANI_POST      A, G
        SHANI_POST      B, G
        SHANI_ROT       A
        SHANI_ROT       B
        .set    G, G + 1
        .endr

        sha1nexte       AE0, [r9 + 16]
        sha1nexte       BE0, [r9 + 48]
        paddd           AABCD, [r9]
        paddd           BABCD, [r9 + 32]
        add             rsi, 64
        add             rcx, 64
        dec             r8
        jnz             .Lshani2_loop

        SHANI_STORE_STATE A, rdi
        SHANI_STORE_STATE B, rdx
.Lshani2_ret:
        ret
        .size   simdcrypt_sha1_shani_compress2, . - simdcrypt_sha1_shani_compress2

        .section .note.GNU-stack,"",@progbits
