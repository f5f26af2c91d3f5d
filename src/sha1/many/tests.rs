use super::*;

/// Every way `run` shares the messages (lanes, SHA-NI pairs or one at a time, each
/// hand-over length), whatever this CPU's row says: the pair kernels run here even where
/// the row never picks them.
#[test]
fn every_split_gives_the_digests() {
    let data: std::vec::Vec<u8> = (0..9000u32).map(|i| (i * 13 + i / 97) as u8).collect();
    let lens = [
        0, 3, 55, 56, 63, 64, 100, 127, 128, 255, 256, 383, 1000, 4100,
    ];
    let singles: std::vec::Vec<Kernel> = [
        Backend::ShaNi,
        Backend::ShaNiAsm,
        Backend::Avx512,
        Backend::Armv8Sha1,
        Backend::Portable,
    ]
    .into_iter()
    .filter_map(|b| impl_for(b).ok())
    .collect();
    let lanes: std::vec::Vec<Kernel> = [
        Backend::Avx512,
        Backend::Avx2,
        Backend::ShaNi,
        Backend::Armv8Sha1,
        Backend::Portable,
    ]
    .into_iter()
    .filter_map(|b| impl_for(b).ok())
    .collect();
    let mut seed = 7usize;
    for count in [1, 2, 3, 4, 5, 8, 9, 12, 16, 17, 24] {
        let inputs: std::vec::Vec<&[u8]> = (0..count)
            .map(|i| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let l = lens[(seed >> 33) % lens.len()].min(if i % 3 == 0 { 300 } else { 9000 });
                &data[i..][..l.min(9000 - i)]
            })
            .collect();
        let want: std::vec::Vec<[u8; 20]> = inputs
            .iter()
            .map(|m| digest_from(Kernel::Portable, IV, 0, m))
            .collect();
        for &l in &lanes {
            for &single in &singles {
                for pairs in [false, true] {
                    for below in [[0; 3], [256, 32, 64], [10_000; 3]] {
                        let tune = Sha1Many {
                            pairs,
                            one_stream_below: below,
                        };
                        let mut out = std::vec![[0u8; 20]; count];
                        run(l, single, tune, &inputs, &mut out);
                        assert_eq!(out, want, "{count} messages, {tune:?}");
                    }
                }
            }
        }
    }
}
