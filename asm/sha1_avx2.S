/*
 * SHA-1 block compression with an AVX2 message schedule and BMI1/BMI2 scalar rounds.
 * GNU as, Intel syntax, x86-64 SysV ABI.
 *
 * void <prefix>sha1_avx2_compress(uint32_t st[5], const uint8_t *blocks, size_t n)
 *   st: H0..H4 as native u32; blocks: n raw 64-byte message blocks.
 *
 * Blocks go in pairs, one block per 128-bit lane of a ymm register:
 *   WK[t] = W[t] + K[t / 20] for both blocks, quad q (t = 4q..4q+3) at buf + 32 q
 *   (low 16 bytes: first block, high 16 bytes: second block), computed with
 *     q = 0..3:   byte-swapped block words
 *     q = 4..7:   W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]); the W[t-3] of the
 *                 quad's last word is the quad's own first word, so it is added afterwards
 *                 as rol1(W[4q]) into the top lane
 *     q = 8..19:  W[t] = rol2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) (no in-quad dependency)
 *   rounds, per block, t = 0..79, on a, b, c, d, e in 32-bit registers:
 *     e += WK[t] + F_t(b, c, d) + rol5(a);  b = rol30(b);  (a, b, c, d, e) = (e, a, b, c, d)
 *     F = Ch  (t < 20):  (b & c) + (~b & d)                 (andn)
 *         Par (20..39, 60..79): b ^ c ^ d
 *         Maj (40..59):  (b & (c ^ d)) + (c & d)
 *     rol5 / rol30 with rorx (no flags, no copy)
 *   then H += (a, b, c, d, e).
 * The schedule of the next pair (two buffers of 640 bytes, used in turn) is spread over
 * the 160 rounds of the current pair: one quad after every eight rounds. With an odd
 * count the last pair's second lane repeats its first block and its rounds are skipped;
 * a lane with no next pair schedules the current blocks again (read, never used).
 */

#include "simdcrypt_asm.h"

        .intel_syntax noprefix

        .section .rodata
        .balign 32
.Lsha1avx2_bswap32:
        .rept   2
        .byte   3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
        .endr
.Lsha1avx2_k:                           /* each K[i] in all eight lanes */
  .irp k, 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6
        .rept   8
        .long   \k
        .endr
  .endr

        .text

/* Register roles. */
        .set    STATE, rdi              /* uint32_t[5] */
        .set    DATA, rsi               /* current pair */
        .set    NLEFT, r14              /* blocks left, counting the current pair */
        .set    CUR, r12                /* WK buffer of the current pair */
        .set    NXT, r13                /* WK buffer being filled for the next pair */
        .set    NEXTA, r15              /* next pair, first block */
        .set    NEXTB, rbp              /* next pair, second block */
        .set    RA, eax
        .set    RB, ebx
        .set    RC, ecx
        .set    RD, edx
        .set    RE, r8d
        .set    T1, r9d
        .set    T2, r10d
        .set    T3, r11d

/* W window: quad q lives in ymm(q mod 8); ymm8..ymm10 are scratch. */
.macro SETW sym, xsym, i
  .irp r, 0, 1, 2, 3, 4, 5, 6, 7
    .if ((\i) % 8) == \r
        .set    \sym, ymm\r
        .set    \xsym, xmm\r
    .endif
  .endr
.endm

/* Quad `q` (a symbol) of the schedule of the pair at NEXTA / NEXTB into `buf`. */
.macro SCHED_Q q, buf
        SETW    WQ, WQX, \q
        SETW    WM1, WM1X, \q+7
        SETW    WM2, WM2X, \q+6
        SETW    WM3, WM3X, \q+5
        SETW    WM4, WM4X, \q+4
        SETW    WM7, WM7X, \q+1
  .if \q < 4
        vmovdqu         WQX, [NEXTA + 16 * \q]
        vinserti128     WQ, WQ, [NEXTB + 16 * \q], 1
        vpshufb         WQ, WQ, [rip + .Lsha1avx2_bswap32]
  .elseif \q < 8
        vpalignr        ymm8, WM3, WM4, 8       /* W[t-14] */
        vpxor           ymm8, ymm8, WM4         /* ^ W[t-16] */
        vpsrldq         ymm9, WM1, 4            /* W[t-3], top lane 0 */
        vpxor           ymm9, ymm9, WM2         /* ^ W[t-8] */
        vpxor           ymm8, ymm8, ymm9
        vpsrld          ymm9, ymm8, 31
        vpaddd          ymm8, ymm8, ymm8
        vpor            ymm8, ymm8, ymm9        /* rol1: lanes 0..2 done */
        vpslldq         ymm9, ymm8, 12          /* W[4q] into the top lane */
        vpsrld          ymm10, ymm9, 31
        vpaddd          ymm9, ymm9, ymm9
        vpor            ymm9, ymm9, ymm10
        vpxor           WQ, ymm8, ymm9          /* top lane ^= rol1(W[4q]) */
  .else
        vpalignr        ymm8, WM1, WM2, 8       /* W[t-6] */
        vpxor           WQ, WQ, WM7             /* W[t-32] ^ W[t-28] */
        vpxor           ymm8, ymm8, WM4         /* ^ W[t-16] */
        vpxor           WQ, WQ, ymm8
        vpsrld          ymm8, WQ, 30
        vpslld          WQ, WQ, 2
        vpor            WQ, WQ, ymm8            /* rol2 */
  .endif
        vpaddd          ymm8, WQ, [rip + .Lsha1avx2_k + 32 * (\q / 5)]
        vmovdqa         [\buf + 32 * \q], ymm8
.endm

.macro ROTATE
        .set    RTMP, RE
        .set    RE, RD
        .set    RD, RC
        .set    RC, RB
        .set    RB, RA
        .set    RA, RTMP
.endm

/* Round `t` (a symbol) of the block whose WK words sit at CUR + `lane`. The order of
   the instructions inside a round was chosen by measurement; in Maj only one operation
   depends on b, the newest input: Maj(b, c, d) = (b & (c ^ d)) + (c & d). */
.macro ROUND t, lane
  .if \t < 20
        rorx            T3, RA, 27
        add             RE, dword ptr [CUR + 32 * (\t / 4) + \lane + 4 * (\t % 4)]
        andn            T1, RB, RD
        mov             T2, RC
        and             T2, RB
        rorx            RB, RB, 2
        add             RE, T1
        add             RE, T2
        add             RE, T3
  .elseif \t >= 40 && \t < 60
        mov             T1, RC
        xor             T1, RD
        mov             T2, RC
        and             T2, RD
        add             RE, dword ptr [CUR + 32 * (\t / 4) + \lane + 4 * (\t % 4)]
        and             T1, RB
        add             RE, T2
        rorx            RB, RB, 2
        add             RE, T1
        rorx            T3, RA, 27
        add             RE, T3
  .else
        mov             T1, RD
        xor             T1, RC
        add             RE, dword ptr [CUR + 32 * (\t / 4) + \lane + 4 * (\t % 4)]
        xor             T1, RB
        rorx            RB, RB, 2
        add             RE, T1
        rorx            T3, RA, 27
        add             RE, T3
  .endif
        ROTATE
.endm

/* 80 rounds of one block, with schedule quads qbase..qbase+9 of the next pair. */
.macro BLOCK lane, qbase
        .set    RT, 0
        .rept   80
        ROUND   RT, \lane
  .if (RT % 8) == 7
        .set    QQ, \qbase + RT / 8
        SCHED_Q QQ, NXT
  .endif
        .set    RT, RT + 1
        .endr
.endm

/* `insn reg, [STATE + 4 i]` for the five working variables (a..e); with `to_state`,
   `insn [STATE + 4 i], reg`. */
.macro STATE_WORDS insn, to_state=0
        .set    OFF, 0
  .irp r, RA, RB, RC, RD, RE
    .if \to_state
        \insn           [STATE + OFF], \r
    .else
        \insn           \r, [STATE + OFF]
    .endif
        .set    OFF, OFF + 4
  .endr
.endm

.macro ADD_STATE
        STATE_WORDS     add
        STATE_WORDS     mov, 1
.endm

/* Saves callee-saved registers, in order, with their unwind rules; CFA_OFF follows the
   CFA's offset from rsp. POP_CFI restores them (named in the reverse order). */
.macro PUSH_CFI regs:vararg
        .set    CFA_OFF, 8
  .irp r, \regs
        push            \r
        .set    CFA_OFF, CFA_OFF + 8
        .cfi_def_cfa_offset CFA_OFF
        .cfi_offset     \r, -CFA_OFF
  .endr
.endm

.macro POP_CFI regs:vararg
  .irp r, \regs
        pop             \r
        .set    CFA_OFF, CFA_OFF - 8
        .cfi_def_cfa_offset CFA_OFF
  .endr
.endm

        FUNC_GLOBAL(SYM(sha1_avx2_compress))
        .balign 32
SYM(sha1_avx2_compress):
        .cfi_startproc
        endbr64
        test            rdx, rdx
        jz              .Lavx2_ret
        PUSH_CFI        rbx, rbp, r12, r13, r14, r15
        mov             rax, rsp
        .cfi_def_cfa_register rax
        sub             rsp, 1280 + 32
        and             rsp, -32
        mov             [rsp + 1280], rax       /* caller's rsp (after the pushes) */
        /* CFA = [rsp + 1280] + 56: DW_CFA_def_cfa_expression, 6 bytes: DW_OP_breg7 (rsp)
           1280 (SLEB128 0x80 0x0a), DW_OP_deref, DW_OP_plus_uconst 56. */
        .cfi_escape     0x0f, 0x06, 0x77, 0x80, 0x0a, 0x06, 0x23, 0x38
        mov             NLEFT, rdx
        mov             CUR, rsp
        lea             NXT, [rsp + 640]

        /* Schedule of the first pair (its second block repeats the first if n == 1). */
        mov             NEXTA, DATA
        lea             NEXTB, [DATA + 64]
        cmp             NLEFT, 1
        cmove           NEXTB, NEXTA
        .set    Q, 0
        .rept   20
        SCHED_Q Q, CUR
        .set    Q, Q + 1
        .endr

        STATE_WORDS     mov

        .balign 16
.Lavx2_loop:
        /* Next pair: two blocks, one (repeated), or none (schedule the current again). */
        lea             NEXTA, [DATA + 128]
        lea             NEXTB, [DATA + 192]
        cmp             NLEFT, 3
        cmove           NEXTB, NEXTA
        cmp             NLEFT, 2
        cmovbe          NEXTA, DATA
        cmovbe          NEXTB, DATA

        BLOCK   0, 0
        ADD_STATE
        cmp             NLEFT, 1
        je              .Lavx2_done
        BLOCK   16, 10
        ADD_STATE
        sub             NLEFT, 2
        jz              .Lavx2_done
        add             DATA, 128
        xchg            CUR, NXT
        jmp             .Lavx2_loop

.Lavx2_done:
        /* Every vector register (message words, schedule) to zero; also leaves the upper
           halves clean, as vzeroupper would. */
        vzeroall
        /* The caller-saved general-purpose registers to zero: a, c, d, e end in eax, ecx,
           edx, r8d holding the new chaining value (key-derived inside HMAC; b in ebx is
           restored below), r9d-r11d hold round terms, rsi and rdi addresses. The WK
           buffers on the stack are left to the caller's stack wipe (wipe::stack_avx).
           32-bit zero idioms clear the whole registers. */
        xor             eax, eax
        xor             ecx, ecx
        xor             edx, edx
        xor             esi, esi
        xor             edi, edi
        xor             r8d, r8d
        xor             r9d, r9d
        xor             r10d, r10d
        xor             r11d, r11d
        mov             rsp, [rsp + 1280]
        .cfi_def_cfa    rsp, CFA_OFF
        POP_CFI         r15, r14, r13, r12, rbp, rbx
.Lavx2_ret:
        ret
        .cfi_endproc
        .size   SYM(sha1_avx2_compress), . - SYM(sha1_avx2_compress)

        GNU_PROPERTY_NOTE
