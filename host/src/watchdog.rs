//! The thread that keeps a hook call within its time (`rulesc hook --timeout`), started on
//! the processor its caller runs on.
//!
//! A hook is a process per call, most of them done in two or three milliseconds, and the
//! watchdog sleeps through all of them. Started on another processor, it costs the call a
//! wake-up of that processor, and then, on every `munmap` and at the process's exit, a flush
//! of that processor's TLB: interrupts between processors, which a virtual machine pays
//! dearly (BENCHMARKS.md, "The watchdog on the caller's processor"). Held to the caller's
//! processor it costs neither, and when its time comes it still runs: a thread that slept
//! is given its turn ahead of one that ran, within a scheduler tick.

use std::io;
use std::thread::JoinHandle;

/// Starts `watchdog` on a thread of its own, held to the processor this thread runs on when
/// the system lets it be (the caller itself stays free to move)
pub fn spawn<F: FnOnce() + Send + 'static>(watchdog: F) -> io::Result<JoinHandle<()>> {
    // The new thread takes its creator's processors, so the caller is held while it creates
    // it, and let go at once.
    let _held = Held::to_this_processor();
    std::thread::Builder::new().spawn(watchdog)
}

/// The calling thread held to the processor it runs on, until dropped
struct Held {
    /// The processors the thread may run on again once dropped; `None` when it was not held
    #[cfg(target_os = "linux")]
    before: Option<rustix::thread::CpuSet>,
}

impl Held {
    #[cfg(target_os = "linux")]
    fn to_this_processor() -> Held {
        use rustix::thread::{sched_getaffinity, sched_getcpu, sched_setaffinity, CpuSet};
        let before = sched_getaffinity(None).ok().filter(|allowed| {
            let here = sched_getcpu();
            let mut one = CpuSet::new();
            one.set(here);
            // Holding it anywhere else would move it; failing to hold it changes nothing.
            allowed.is_set(here) && sched_setaffinity(None, &one).is_ok()
        });
        Held { before }
    }

    #[cfg(not(target_os = "linux"))]
    fn to_this_processor() -> Held {
        Held {}
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(before) = &self.before {
            // Left held, the caller would only be slower to move: nothing to tell.
            let _ = rustix::thread::sched_setaffinity(None, before);
        }
    }
}

#[cfg(test)]
#[cfg(target_os = "linux")]
mod tests {
    use rustix::thread::{sched_getaffinity, CpuSet};

    fn allowed() -> Vec<usize> {
        let set = sched_getaffinity(None).expect("the test's own processors");
        (0..CpuSet::MAX_CPU)
            .filter(|&cpu| set.is_set(cpu))
            .collect()
    }

    #[test]
    fn the_watchdog_runs_on_one_processor_and_the_caller_stays_free() {
        let before = allowed();
        let watchdog = super::spawn(|| {
            let own = allowed();
            assert_eq!(own.len(), 1, "the watchdog may run on {own:?}");
        })
        .expect("a thread");
        watchdog.join().expect("the watchdog's checks");
        // The kernel reads `sched_setaffinity` as the caller's processors, whichever they are.
        assert_eq!(allowed(), before);
    }
}
