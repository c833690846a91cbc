//! The deadline of a `rulesc hook` call: past `--timeout`, unless the call was answered, it
//! gets the answer of a call that could not be checked (denied, for a tool call), saying what
//! it was waiting on, and the process ends, whatever it still waits on (a lock, a disk, a
//! server; a lock dies with its process, and every write is a rename).
//!
//! On Unix the deadline is an alarm signal, not a thread: a thread that only waits costs a
//! hook call about a fifth of a millisecond (its start wakes a second core and the process's
//! end waits on it), more than evaluating the whole of `rules/` (BENCHMARKS.md). A signal
//! handler may only do what is safe in one, so it writes bytes prepared beforehand and ends
//! the process: the answer out of time is rendered ahead ([`prepare`]), again whenever what
//! the call waits on changes.
//!
//! One call per process, so the deadline's state is the process's: who answered, and how.
//!
//! The one module of the workspace with `unsafe`: a signal handler, and the raw `write` and
//! `_exit` it may call.
#![allow(
    unsafe_code,
    reason = "a signal handler, and the raw calls it may make, need it"
)]

use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU8, Ordering::SeqCst};
use std::time::Duration;

use rulesc_host::{Exit, Reply};

use crate::cli::ExitStatus;

/// An answer as the bytes to write, and the process's exit code
#[derive(Debug)]
pub(crate) struct Rendered {
    stderr: Vec<u8>,
    stdout: Vec<u8>,
    status: ExitStatus,
}

impl Rendered {
    /// `reply` as written: its lines on stderr, each on one line, its answer on stdout
    pub(crate) fn new(reply: &Reply) -> Rendered {
        let mut stderr = Vec::new();
        for line in &reply.stderr {
            stderr.extend_from_slice(rulesc::one_line(line).as_bytes());
            stderr.push(b'\n');
        }
        let stdout = reply
            .stdout
            .as_ref()
            .map(|answer| format!("{answer}\n").into_bytes())
            .unwrap_or_default();
        let status = match reply.exit {
            Exit::Answer => ExitStatus::Success,
            Exit::Deny => ExitStatus::Error,
        };
        Rendered {
            stderr,
            stdout,
            status,
        }
    }
}

/// Nobody answered yet
const PENDING: u8 = 0;
/// The call is writing its answer
const ANSWERING: u8 = 1;
/// The time ran out while the call wrote its answer: it ends the process once written
const LATE: u8 = 2;
/// The deadline answered: the process is ending
const OUT_OF_TIME: u8 = 3;
/// The call answered, with exit status `ANSWERED + code`
const ANSWERED: u8 = 4;

/// Who answered, and how the process exits
static STATE: AtomicU8 = AtomicU8::new(PENDING);

/// The answer out of time, leaked while the deadline may read it
static OUT_OF_TIME_ANSWER: AtomicPtr<Rendered> = AtomicPtr::new(ptr::null_mut());

/// Starts the deadline: past `budget`, the answer last prepared is given
pub(crate) fn start(budget: Duration) -> std::io::Result<()> {
    sys::arm(budget)
}

/// Makes `answer` the one given if the time runs out from now on
pub(crate) fn prepare(answer: Rendered) {
    let new = Box::into_raw(Box::new(answer));
    let old = OUT_OF_TIME_ANSWER.swap(new, SeqCst);
    // The deadline marks the state before it reads the answer: if it has not, it will read
    // the new one, and the old is free to go; if it has, the process is ending anyway.
    if !old.is_null() && STATE.load(SeqCst) != OUT_OF_TIME {
        // SAFETY: `old` came from `Box::into_raw` here, was swapped out of the one place that
        // held it, and the deadline, which never reads it after `OUT_OF_TIME`, has not
        // started to.
        drop(unsafe { Box::from_raw(old) });
    }
}

/// Gives `answer` as the call's answer, unless the deadline gave one first (it then ends the
/// process while this waits); how the process exits
pub(crate) fn give(answer: &Rendered) -> ExitStatus {
    if STATE
        .compare_exchange(PENDING, ANSWERING, SeqCst, SeqCst)
        .is_err()
    {
        // Only the deadline leaves `PENDING` otherwise, and it ends the process.
        loop {
            std::thread::park();
        }
    }
    let status = if sys::write_all(sys::STDERR, &answer.stderr)
        .and_then(|()| sys::write_all(sys::STDOUT, &answer.stdout))
        .is_ok()
    {
        answer.status
    } else {
        ExitStatus::Error
    };
    if STATE
        .compare_exchange(ANSWERING, ANSWERED + status.code(), SeqCst, SeqCst)
        .is_err()
    {
        // `LATE`: the time ran out while this wrote, and what is left (pruning) ends here.
        std::process::exit(i32::from(status.code()));
    }
    status
}

/// What the deadline does when the time runs out: gives the answer out of time unless the
/// call answered, and ends the process, unless the call is writing its answer (it ends the
/// process once written)
///
/// Safe in a signal handler: atomics, `write` and `_exit` alone.
fn expire() {
    match STATE.compare_exchange(PENDING, OUT_OF_TIME, SeqCst, SeqCst) {
        Ok(_) => {
            let answer = OUT_OF_TIME_ANSWER.load(SeqCst);
            // SAFETY: a non-null pointer came from `prepare`, which frees an answer only
            // before the state is `OUT_OF_TIME`, and it is `OUT_OF_TIME` from here on.
            let code = match unsafe { answer.as_ref() } {
                Some(answer) => {
                    // Nothing is left to do if stdout or stderr is gone.
                    let _ = sys::write_all(sys::STDERR, &answer.stderr);
                    let _ = sys::write_all(sys::STDOUT, &answer.stdout);
                    answer.status.code()
                }
                None => ExitStatus::Error.code(),
            };
            sys::end(code)
        }
        Err(ANSWERING) => {
            if let Err(answered) = STATE.compare_exchange(ANSWERING, LATE, SeqCst, SeqCst) {
                sys::end(answered.saturating_sub(ANSWERED));
            }
        }
        Err(answered) => sys::end(answered.saturating_sub(ANSWERED)),
    }
}

/// The alarm signal, and what a signal handler may call
#[cfg(unix)]
mod sys {
    use std::io;
    use std::ptr;
    use std::time::Duration;

    /// The file descriptors of the answer
    pub(super) const STDOUT: libc::c_int = libc::STDOUT_FILENO;
    pub(super) const STDERR: libc::c_int = libc::STDERR_FILENO;

    /// Has `SIGALRM` call [`super::expire`] once `budget` has passed
    pub(super) fn arm(budget: Duration) -> io::Result<()> {
        // SAFETY: the handler does only what is async-signal-safe (`expire`); the structures
        // are zeroed plain C data filled in before use, and every result is checked.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_alarm as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(libc::SIGALRM, &action, ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
            // A signal mask is inherited: a host that blocks SIGALRM must not stop the clock.
            let mut alarm: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut alarm);
            libc::sigaddset(&mut alarm, libc::SIGALRM);
            let unblocked = libc::pthread_sigmask(libc::SIG_UNBLOCK, &alarm, ptr::null_mut());
            if unblocked != 0 {
                return Err(io::Error::from_raw_os_error(unblocked));
            }
            let timer = libc::itimerval {
                it_interval: libc::timeval {
                    tv_sec: 0,
                    tv_usec: 0,
                },
                it_value: timeval(budget),
            };
            if libc::setitimer(libc::ITIMER_REAL, &timer, ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// `budget` as a `timeval`, at least a microsecond (zero would disarm the timer)
    #[allow(
        clippy::unnecessary_fallible_conversions,
        reason = "`suseconds_t` is narrower than `u32` on some targets"
    )]
    fn timeval(budget: Duration) -> libc::timeval {
        let budget = budget.max(Duration::from_micros(1));
        libc::timeval {
            tv_sec: libc::time_t::try_from(budget.as_secs()).unwrap_or(libc::time_t::MAX),
            tv_usec: libc::suseconds_t::try_from(budget.subsec_micros()).unwrap_or(0),
        }
    }

    extern "C" fn on_alarm(_signal: libc::c_int) {
        super::expire();
    }

    /// Writes all of `bytes` to `fd`, as a signal handler may
    pub(super) fn write_all(fd: libc::c_int, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            // SAFETY: `bytes` is a live slice of the given length.
            let written = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
            match usize::try_from(written) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(written) => bytes = bytes.get(written..).unwrap_or_default(),
                Err(_) => {
                    let err = io::Error::last_os_error();
                    if err.kind() != io::ErrorKind::Interrupted {
                        return Err(err);
                    }
                }
            }
        }
        Ok(())
    }

    /// Ends the process with `code` at once, as a signal handler may: nothing more runs
    pub(super) fn end(code: u8) -> ! {
        // SAFETY: `_exit` is async-signal-safe, and every answer was written unbuffered.
        unsafe { libc::_exit(libc::c_int::from(code)) }
    }
}

/// A thread that waits out the time, where there is no alarm signal
#[cfg(not(unix))]
mod sys {
    use std::io::{self, Write};
    use std::time::Duration;

    /// The streams of the answer
    pub(super) const STDOUT: u8 = 1;
    pub(super) const STDERR: u8 = 2;

    /// Starts a thread that calls [`super::expire`] once `budget` has passed
    pub(super) fn arm(budget: Duration) -> io::Result<()> {
        std::thread::Builder::new()
            .spawn(move || {
                std::thread::sleep(budget);
                super::expire();
            })
            .map(drop)
    }

    /// Writes all of `bytes` to stdout or stderr, flushed
    pub(super) fn write_all(stream: u8, bytes: &[u8]) -> io::Result<()> {
        if stream == STDOUT {
            let mut stdout = io::stdout().lock();
            stdout.write_all(bytes).and_then(|()| stdout.flush())
        } else {
            io::stderr().lock().write_all(bytes)
        }
    }

    /// Ends the process with `code`
    pub(super) fn end(code: u8) -> ! {
        std::process::exit(i32::from(code))
    }
}
