//! Secret-independence check, the way ctgrind does it: run every backend under valgrind
//! memcheck with the key (and, for hashes, the message) marked *undefined*. Memcheck then
//! reports any conditional jump or memory address that depends on them.
//!
//! ```sh
//! cargo build --release --example ct_check --all-features
//! valgrind --error-exitcode=1 --suppressions=ct/valgrind.supp \
//!     target/release/examples/ct_check
//! ```
//! Outside valgrind the client requests are no-ops and the program just runs.
//! valgrind 3.19 hides SHA-NI, VAES and AVX-512 from CPUID, so under it the check covers
//! the backends it reports (portable, AES-NI, SSSE3, AVX2); the list is printed.

use simdcrypt::{Aes, Backend, Cbc, CbcHmacSha1, HmacSha1, Sha1, Xts};

/// A memcheck client request (valgrind.h's amd64 magic sequence); returns `default` when
/// not running under valgrind.
#[cfg(simdcrypt_x86_64)]
fn client_request(request: u64, addr: u64, len: u64) -> u64 {
    let args: [u64; 6] = [request, addr, len, 0, 0, 0];
    let mut result: u64 = 0;
    // SAFETY: the four rotations of rdi total 128 bits (rdi is unchanged) and `xchg rbx,
    // rbx` is a no-op on real hardware; under valgrind the sequence reads the 6-word
    // argument block at rax and writes the result to rdx. Nothing else is touched.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") args.as_ptr(),
            inout("rdi") 0u64 => _,
        );
    }
    result
}

#[cfg(not(simdcrypt_x86_64))]
fn client_request(_: u64, _: u64, _: u64) -> u64 {
    0
}

const MAKE_MEM_UNDEFINED: u64 = 0x4d43_0001;
const MAKE_MEM_DEFINED: u64 = 0x4d43_0002;

/// Marks bytes as secret: memcheck treats them as uninitialised from here on.
fn secret<T: ?Sized>(x: &T) {
    client_request(
        MAKE_MEM_UNDEFINED,
        x as *const T as *const u8 as u64,
        size_of_val(x) as u64,
    );
}

/// Declassifies bytes (results that are public by design, such as a ciphertext).
fn public<T: ?Sized>(x: &T) {
    client_request(
        MAKE_MEM_DEFINED,
        x as *const T as *const u8 as u64,
        size_of_val(x) as u64,
    );
}

fn names(it: impl Iterator<Item = Backend>) -> Vec<&'static str> {
    it.map(|b| b.name()).collect()
}

fn check_aes() {
    for b in Aes::available_backends() {
        for klen in [16, 24, 32] {
            let key: Vec<u8> = (0..klen as u8).collect();
            let mut blocks = vec![[0x5au8; 16]; 37];
            secret(&key[..]);
            secret(&blocks[..]);
            let aes = Aes::with_backend(&key, b).expect("available backend");
            aes.encrypt_blocks(&mut blocks);
            aes.decrypt_blocks(&mut blocks);
            public(&blocks[..]);
            assert!(
                blocks.iter().all(|x| *x == [0x5a; 16]),
                "AES {b} round trip"
            );
        }
    }
    println!("AES: {:?}", names(Aes::available_backends()));
}

/// The negative control: a table lookup and a branch on a secret byte, which memcheck
/// must report (CI runs this and expects valgrind to fail).
#[inline(never)]
fn leaky_control() {
    static TABLE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).wrapping_mul(7);
            i += 1;
        }
        t
    };
    let key = std::hint::black_box([3u8; 16]);
    secret(&key);
    let v = TABLE[usize::from(key[0])];
    if std::hint::black_box(v) > 9 {
        println!("branch taken");
    }
}

fn check_cbc() {
    for b in Cbc::available_backends() {
        for klen in [16, 24, 32] {
            let key: Vec<u8> = (0..klen as u8).map(|i| i.wrapping_mul(17)).collect();
            let iv = [9u8; 16];
            let expect: Vec<u8> = (0..200u8).collect();
            let msg = expect.clone();
            secret(&key[..]);
            secret(&msg[..]);
            let cbc = Cbc::with_backend(&key, b).expect("available backend");
            let mut buf = msg[..192].to_vec();
            let mut v = iv;
            cbc.encrypt(&mut v, &mut buf).unwrap();
            let mut v = iv;
            cbc.decrypt(&mut v, &mut buf).unwrap();
            let mut cts = msg[..199].to_vec();
            cbc.encrypt_cts(&iv, &mut cts).unwrap();
            cbc.decrypt_cts(&iv, &mut cts).unwrap();
            let mut a = msg[..64].to_vec();
            let mut c = msg[64..160].to_vec();
            cbc.encrypt_many(&mut [iv, iv], &mut [&mut a[..], &mut c[..]])
                .unwrap();
            let ct = cbc.encrypt_padded(&iv, &msg[..77]);
            // Whether padding is valid is public by design (the caller learns it from the
            // result); the check itself must not branch on the padding bytes.
            let pt = cbc.decrypt_padded(&iv, &ct);
            public(&buf[..]);
            public(&cts[..]);
            assert_eq!(buf, expect[..192], "CBC {b}");
            assert_eq!(cts, expect[..199], "CBC-CS3 {b}");
            let pt = pt.expect("valid padding");
            // The plaintext's length reveals the padding length: public by design.
            public(&pt);
            public(&pt[..]);
            assert_eq!(pt, expect[..77], "CBC padded {b}");
        }
    }
    println!("CBC: {:?}", names(Cbc::available_backends()));
}

fn check_xts() {
    for b in Xts::available_backends() {
        for klen in [32, 64] {
            let key: Vec<u8> = (0..klen as u8).map(|i| i.wrapping_mul(29) ^ 0x11).collect();
            let expect: Vec<u8> = (0..=255u8).cycle().take(4096 + 512 + 37).collect();
            let msg = expect.clone();
            secret(&key[..]);
            secret(&msg[..]);
            let xts = Xts::with_backend(&key, b).expect("available backend");
            // One unit with ciphertext stealing, and many 512-byte sectors.
            let mut unit = msg[..4096 + 37].to_vec();
            xts.encrypt_sector(&mut unit, 77).unwrap();
            xts.decrypt_sector(&mut unit, 77).unwrap();
            let mut sectors = msg[..4096 + 512].to_vec();
            xts.encrypt_sectors(&mut sectors, 512, 1 << 70).unwrap();
            xts.decrypt_sectors(&mut sectors, 512, 1 << 70).unwrap();
            let mut tw = msg[..100].to_vec();
            xts.encrypt_with_tweak(&mut tw, &[0xff; 16]).unwrap();
            xts.decrypt_with_tweak(&mut tw, &[0xff; 16]).unwrap();
            public(&unit[..]);
            public(&sectors[..]);
            public(&tw[..]);
            assert_eq!(unit, expect[..4096 + 37], "XTS {b}");
            assert_eq!(sectors, expect[..4096 + 512], "XTS sectors {b}");
            assert_eq!(tw, expect[..100], "XTS tweak {b}");
        }
    }
    println!("XTS: {:?}", names(Xts::available_backends()));
}

fn check_sha1() {
    let want = simdcrypt::sha1(&[0x61u8; 1000]);
    let want_mac = {
        let mut h = HmacSha1::new(b"key");
        h.update(&[0x61u8; 1000]);
        h.finalize()
    };
    for b in Sha1::available_backends() {
        // The message is the secret (a keyed hash's key is hashed as a message).
        let msg = vec![0x61u8; 1000];
        secret(&msg[..]);
        let mut h = Sha1::with_backend(b).expect("available backend");
        h.update(&msg[..3]);
        h.update(&msg[3..]);
        let d = h.finalize();
        public(&d);
        assert_eq!(d, want, "SHA-1 {b}");
        let mut out = [[0u8; 20]; 9];
        let msgs: Vec<&[u8]> = (0..9).map(|i| &msg[..100 * i + 7]).collect();
        simdcrypt::sha1::sha1_many_with(b, &msgs, &mut out).expect("available backend");
        public(&out);
    }
    let key = b"key".to_vec();
    let msg = vec![0x61u8; 1000];
    secret(&key[..]);
    secret(&msg[..]);
    let mut m = HmacSha1::new(&key);
    m.update(&msg);
    // Verifying a correct tag: only the final yes/no is public.
    m.clone().verify(&want_mac).expect("tag matches");
    m.clone()
        .verify_truncated(&want_mac[..12], 12)
        .expect("tag matches");
    let t = m.finalize();
    public(&t);
    assert_eq!(t, want_mac, "HMAC-SHA1");
    // One-shot, keyed in the call, on every backend.
    for b in Sha1::available_backends() {
        let t = simdcrypt::sha1::hmac_with(b, &key, &msg).expect("available backend");
        public(&t);
        assert_eq!(t, want_mac, "one-shot HMAC-SHA1 {b}");
    }
    println!("SHA-1: {:?}", names(Sha1::available_backends()));
}

fn check_cbc_hmac_and_krb5() {
    use simdcrypt::krb5::{Aes128CtsHmacSha196, Aes256CtsHmacSha196};
    let expect: Vec<u8> = (0..=255u8).cycle().take(300).collect();
    for b in CbcHmacSha1::available_backends() {
        for klen in [16, 32] {
            let key: Vec<u8> = (0..klen as u8).map(|i| i.wrapping_mul(13) ^ 0x5a).collect();
            let mac_key = vec![0x33u8; 20];
            let msg = expect.clone();
            secret(&key[..]);
            secret(&mac_key[..]);
            secret(&msg[..]);
            let c = CbcHmacSha1::with_backend(&key, &mac_key, b).expect("available backend");
            let mut buf = msg[..299].to_vec();
            let tag = c.seal_cts(&[4u8; 16], &mut buf).unwrap();
            // Whether the tag matches is public by design; the comparison must not branch.
            c.open_cts_truncated(&[4u8; 16], &mut buf, &tag[..12], 12)
                .expect("tag matches");
            let mut whole = msg[..256].to_vec();
            let t = c.seal(&[4u8; 16], &mut whole).unwrap();
            c.open(&[4u8; 16], &mut whole, &t).expect("tag matches");
            public(&buf[..]);
            public(&whole[..]);
            assert_eq!(buf, expect[..299], "CBC-HMAC-SHA1 {b}");
            assert_eq!(whole, expect[..256], "CBC-HMAC-SHA1 whole blocks {b}");
        }
    }
    // Kerberos: a secret base key, password and plaintext.
    let key = [0x21u8; 32];
    let password = b"correct horse".to_vec();
    let msg = expect.clone();
    secret(&key);
    secret(&password[..]);
    secret(&msg[..]);
    let k256 = Aes256CtsHmacSha196::new(&key).unwrap();
    let k128 = Aes128CtsHmacSha196::string_to_key(&password, b"EXAMPLE.COMuser", 10).unwrap();
    for keys in [k256.usage_keys(3), k128.usage_keys(24)] {
        let ct = keys.encrypt(&[7u8; 16], &msg[..100]);
        let pt = keys.decrypt(&ct).expect("valid ciphertext");
        let ck = keys.checksum(&msg[..50]);
        keys.verify_checksum(&msg[..50], &ck)
            .expect("valid checksum");
        public(&pt[..]);
        assert_eq!(pt, expect[..100], "krb5 {}", keys.backend());
    }
    println!(
        "CBC-HMAC-SHA1 and krb5: {:?}",
        names(CbcHmacSha1::available_backends())
    );
}

fn main() {
    if std::env::args().any(|a| a == "--leaky-control") {
        leaky_control();
        return;
    }
    let under_valgrind = client_request(0x1001, 0, 0) != 0; // RUNNING_ON_VALGRIND
    println!(
        "under valgrind: {under_valgrind}; detected: {}",
        simdcrypt::cpu::detected()
    );
    check_aes();
    check_cbc();
    check_xts();
    check_sha1();
    check_cbc_hmac_and_krb5();
    println!("ct_check: done");
}
