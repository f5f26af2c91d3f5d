/*
 * Shared by every file in asm/ (C preprocessor, then GNU as).
 *
 * Symbol names. build.rs defines SIMDCRYPT_PREFIX as the crate version's prefix, e.g.
 * simdcrypt_0_1_0_ for version 0.1.0, and gives the same string to the Rust side
 * (env SIMDCRYPT_ASM_PREFIX), so two semver-incompatible versions of the crate in one
 * binary never define or bind to the same symbol. Every global symbol is named through
 * SYM() and declared with FUNC_GLOBAL, which also makes it hidden: the symbols are
 * internal to the crate and never exported from a shared object.
 *
 * CET. Every entry point starts with endbr64 (the Rust side may call through a function
 * pointer, an indirect branch that IBT checks). The code has no other indirect-branch
 * target: every jump is direct, to a local label. It makes no calls and returns only
 * through the return address its caller pushed (rsp is restored before each ret), so
 * the shadow stack (SHSTK) stays in step. GNU_PROPERTY_NOTE then marks each object as
 * IBT- and SHSTK-compatible; without the note the linker would mark the whole binary as
 * not CET-compatible (it ANDs the notes of all its inputs).
 */

#ifndef SIMDCRYPT_PREFIX
#error "SIMDCRYPT_PREFIX is defined by build.rs (the crate version's symbol prefix)"
#endif

#define SIMDCRYPT_CAT_(a, b) a##b
#define SIMDCRYPT_CAT(a, b) SIMDCRYPT_CAT_(a, b)
#define SYM(name) SIMDCRYPT_CAT(SIMDCRYPT_PREFIX, name)

/* A global, hidden function symbol (the label and its endbr64 follow at the use). */
#define FUNC_GLOBAL(sym) .globl sym; .hidden sym; .type sym, @function

/*
 * The x86 feature property: NT_GNU_PROPERTY_TYPE_0 (5) with owner "GNU", one property
 * GNU_PROPERTY_X86_FEATURE_1_AND (0xc0000002) of 4 bytes, value IBT (1) | SHSTK (2),
 * padded to 8 bytes as the ELF64 gABI requires; plus the non-executable stack marker.
 */
#define GNU_PROPERTY_NOTE                                                              \
        .pushsection .note.gnu.property, "a";                                          \
        .p2align 3;                                                                    \
        .long 4;                /* name size: "GNU\0" */                               \
        .long 16;               /* descriptor size */                                  \
        .long 5;                /* NT_GNU_PROPERTY_TYPE_0 */                           \
        .asciz "GNU";                                                                  \
        .long 0xc0000002;       /* GNU_PROPERTY_X86_FEATURE_1_AND */                   \
        .long 4;                /* property data size */                               \
        .long 3;                /* IBT | SHSTK */                                      \
        .p2align 3;                                                                    \
        .popsection;                                                                   \
        .section .note.GNU-stack, "", @progbits
