//! Timing: one contender for one short slice, and the statistics over rounds.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Something to time: one call of `process_one` processes a fixed number of bytes.
pub trait Runner {
    /// Processes one message (or one batch of messages) of the configured size.
    fn process_one(&mut self);

    /// `n` calls of [`Runner::process_one`] (monomorphised, so no dynamic call per message).
    fn process_n(&mut self, n: u64) {
        for _ in 0..n {
            self.process_one();
        }
    }

    /// The output of the most recent `process_one` (ciphertext or digests). After exactly one `process_one`
    /// from a fresh runner it is the same for every correct contender of an algorithm.
    fn output(&self) -> &[u8];

    /// Whether to time it in wall time (work spread over other threads), not the calling
    /// thread's CPU time.
    fn wall_clock(&self) -> bool {
        false
    }
}

static CPU_NS: AtomicU64 = AtomicU64::new(0);
static WALL_NS: AtomicU64 = AtomicU64::new(0);

/// CPU time this thread has run, where the OS tells it.
#[cfg(unix)]
pub fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable `timespec`; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// CPU time this thread has run: not known here.
#[cfg(not(unix))]
pub fn thread_cpu_time() -> Option<Duration> {
    None
}

/// The share of one CPU this thread got while measuring, so far (1.0 on an idle machine).
pub fn cpu_share() -> Option<f64> {
    let wall = WALL_NS.load(Ordering::Relaxed);
    (wall > 0 && thread_cpu_time().is_some())
        .then(|| CPU_NS.load(Ordering::Relaxed) as f64 / wall as f64)
}

/// Runs `r` for `slice` of this thread's CPU time (at most 4 slices of wall time) and
/// returns bytes per second of CPU time, counting `bytes` per run.
///
/// CPU time, not wall time: on a shared machine the measuring thread is preempted, and
/// wall time would charge the other processes' time to whichever contender was running.
/// Where the OS gives no thread CPU time, wall time is used. The clocks are read once per
/// batch; batches double until one takes about 50 µs, so reading them costs nothing next
/// to the work even at 16-byte messages.
pub fn time_slice(r: &mut dyn Runner, bytes: f64, slice: Duration) -> f64 {
    let wall = r.wall_clock();
    time_slice_with(r, bytes, slice, wall)
}

/// [`time_slice`] in wall time when `wall` is set (threads running at once, each timing
/// its own share: their rates add up).
pub fn time_slice_with(r: &mut dyn Runner, bytes: f64, slice: Duration, wall: bool) -> f64 {
    let start = Instant::now();
    let cpu_start = if wall { None } else { thread_cpu_time() };
    let mut runs: u64 = 0;
    let mut batch: u64 = 1;
    loop {
        let t0 = Instant::now();
        r.process_n(batch);
        runs += batch;
        let now = Instant::now();
        let wall = now - start;
        let cpu = cpu_start.and_then(|c0| Some(thread_cpu_time()?.saturating_sub(c0)));
        let spent = cpu.unwrap_or(wall);
        if spent >= slice || wall >= 4 * slice {
            if cpu.is_some() {
                CPU_NS.fetch_add(spent.as_nanos() as u64, Ordering::Relaxed);
                WALL_NS.fetch_add(wall.as_nanos() as u64, Ordering::Relaxed);
            }
            return bytes * runs as f64 / spent.max(Duration::from_nanos(1)).as_secs_f64();
        }
        if now - t0 < Duration::from_micros(50) && batch < 1 << 30 {
            batch *= 2;
        }
    }
}

/// Median, minimum and maximum of the samples (which must not be empty).
pub fn stats(samples: &[f64]) -> (f64, f64, f64) {
    assert!(!samples.is_empty());
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    (median, v[0], v[n - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_odd_and_even() {
        assert_eq!(stats(&[3.0, 1.0, 2.0]), (2.0, 1.0, 3.0));
        assert_eq!(stats(&[4.0, 1.0, 2.0, 3.0]), (2.5, 1.0, 4.0));
        assert_eq!(stats(&[7.0]), (7.0, 7.0, 7.0));
    }

    struct Count(u64, [u8; 1]);
    impl Runner for Count {
        fn process_one(&mut self) {
            self.0 += 1;
        }
        fn output(&self) -> &[u8] {
            &self.1
        }
    }

    #[test]
    fn time_slice_runs_and_counts() {
        let mut c = Count(0, [0]);
        let bps = time_slice(&mut c, 16.0, Duration::from_millis(5));
        assert!(c.0 > 0);
        assert!(bps > 0.0 && bps.is_finite());
    }
}
