//! The dry runs of the wipes that measure how far each must reach (test builds only):
//! `crate::wipe::stack` and its x86-64 assembly skip the wipe when [`DRY`] is set and
//! record where it would have started and ended; where the leak tests painted the stack,
//! each site's deepest write below it.

/// Test builds: when [`DRY`] is set, records in [`LOWEST`] where a wipe of `bytes` would
/// start (`at`, the caller's stack pointer, where the wipe's area starts) and in
/// [`REACH`] where it would end, and says to skip it. Where the leak tests painted the
/// stack ([`PAINTED`]), it also finds how deep the calls since the paint (or the last dry
/// wipe) wrote below this wipe, keeps the deepest for its call site in [`SITES`], and
/// paints the region again, so that each site is measured against the kernels it follows.
#[inline(never)]
#[track_caller]
pub(crate) fn dry_run(bytes: usize, at: usize) -> bool {
    if !DRY.with(core::cell::Cell::get) {
        return false;
    }
    LOWEST.with(|l| l.set(l.get().min(at)));
    REACH.with(|l| l.set(l.get().min(at - bytes)));
    measure(at, Some((bytes, core::panic::Location::caller())));
    true
}

/// Test builds, where the leak tests painted the stack ([`PAINTED`]): finds how deep the
/// calls since the paint (or the last dry wipe, or [`repaint`]) wrote below `at` (a wipe's
/// start), keeps the deepest for the call site in [`SITES`] with the wipe's reach (`site`:
/// the reach and the site; `None` from [`repaint`]), and paints the region again, so that
/// each site is measured against the kernels it follows.
#[inline(always)]
fn measure(at: usize, site: Option<(usize, &'static core::panic::Location<'static>)>) {
    let (bottom, top) = PAINTED.with(core::cell::Cell::get);
    // This frame's stack pointer, less the red zone (x86-64's; AArch64 Linux has none, its
    // macOS one is as large): nothing above it may be painted.
    #[cfg(simdcrypt_sp)]
    let limit = (super::stack_pointer() - 128) & !7;
    #[cfg(not(simdcrypt_sp))]
    let limit = (at - 4096) & !7;
    let top = top.min(limit);
    if bottom < top {
        let mut deepest = top;
        for a in (bottom..top).step_by(8) {
            // SAFETY (test only, as in `leak_tests`): the thread's mapped stack, painted
            // by the leak test, below every live frame; plain 8-byte reads.
            let v =
                unsafe { core::ptr::read_volatile(core::ptr::with_exposed_provenance::<u64>(a)) };
            if v != PAINT {
                deepest = a;
                break;
            }
        }
        if let Some((bytes, site)) = site {
            SITES.with(|s| {
                let mut s = s.borrow_mut();
                if let Some(e) = s.iter_mut().find(|e| e.0 == site) {
                    e.1 = e.1.max(at.saturating_sub(deepest));
                    e.2 = bytes;
                } else if s.len() < s.capacity() {
                    s.push((site, at.saturating_sub(deepest), bytes));
                }
            });
        }
        for a in (bottom..top).step_by(8) {
            // SAFETY: as above, below this frame's stack pointer and red zone; plain
            // 8-byte writes of the paint.
            unsafe {
                core::ptr::write_volatile(core::ptr::with_exposed_provenance_mut::<u64>(a), PAINT)
            };
        }
    }
}

/// Test builds: paints the leak tests' region again (below this frame), where it is set.
#[cfg(feature = "std")]
#[inline(never)]
pub(crate) fn repaint() {
    measure(super::stack_pointer(), None);
}

/// The leak tests' paint.
pub(crate) const PAINT: u64 = 0xa5a5_a5a5_a5a5_a5a5;

std::thread_local! {
    /// Test builds: the stack region `[bottom, top)` the leak tests painted with [`PAINT`]
    /// (empty: none), and each wipe site's deepest write below its start with its reach.
    pub(crate) static PAINTED: core::cell::Cell<(usize, usize)> = const { core::cell::Cell::new((0, 0)) };
    pub(crate) static SITES: core::cell::RefCell<std::vec::Vec<(&'static core::panic::Location<'static>, usize, usize)>> =
        core::cell::RefCell::new(std::vec::Vec::with_capacity(256));
}

std::thread_local! {
    /// Test builds: a switch that makes [`crate::wipe::stack`] wipe nothing, the lowest
    /// address where such a skipped wipe would have started on this thread (where the
    /// frames of the calls before it started), and the lowest address a skipped wipe would
    /// have reached, so that `leak_tests` can see how deep below those the calls wrote.
    pub(crate) static LOWEST: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
    pub(crate) static REACH: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
    pub(crate) static DRY: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}
