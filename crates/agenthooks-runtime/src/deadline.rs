//! The process edge's deadline: if the handlers have not answered by then, the late answer
//! (the policy's failure response, prepared before they ran) is written and the process exits
//! with its code.
//!
//! On Unix there is no watchdog thread: a one-shot `setitimer(ITIMER_REAL)` raises `SIGALRM` at
//! the deadline, and its handler does only async-signal-safe work — an atomic claim, `write(2)`
//! of the prepared bytes (the log line, timestamped with the deadline; the answer's stdout and
//! stderr), `open`/`mkdir`/`read` for the log files, and `_exit` with the answer's exit code. A
//! thread would cost every hook invocation a `clone3`, a stack mapping and, with glibc, a
//! 128 MiB arena reservation on its first allocation; the timer costs two system calls to arm
//! and two to disarm. Elsewhere, or when the timer cannot be armed, a watchdog thread does the
//! same. Either way the first to claim the answer (the handlers' result or the deadline) writes
//! it; the other never writes.
//!
//! A consumer that installed its own `tracing` subscriber does not get the deadline's log line
//! on Unix (the line is written by the signal handler, which cannot call into a subscriber).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

use crate::codec::WireResponse;
use crate::log::Sink;

use super::stdout::StdoutGuard;

/// The log message of a late answer.
const MESSAGE: &str = "handlers did not answer before the deadline; answering per failure policy";

/// The late answer and everything writing it needs, prepared before the handlers run.
pub(super) struct Late {
    answered: AtomicBool,
    response: WireResponse,
    #[cfg(unix)]
    prepared: sys::Prepared,
}

impl Late {
    /// The late `response`, written to the guard's saved stdout; the warn line goes to `log`
    /// (`None`: logging is off at the warn level); `at` is the deadline (the line's timestamp).
    pub(super) fn new(response: WireResponse, guard: &StdoutGuard, log: Option<&Sink>, at: Instant) -> Self {
        #[cfg(not(unix))]
        let _ = (guard, log, at);
        Self {
            answered: AtomicBool::new(false),
            #[cfg(unix)]
            prepared: sys::Prepared::new(guard, log, at),
            response,
        }
    }

    /// Takes the right to answer: `true` once, for the first caller.
    fn claim(&self) -> bool {
        self.answered
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }
}

/// The log line of a late answer, stamped with the wall-clock time of the deadline `at`.
fn log_line(at: Instant) -> String {
    let now = Instant::now();
    let wall = SystemTime::now();
    let when = if at > now { wall + (at - now) } else { wall };
    let mut line = crate::log::line_head(when, tracing::Level::WARN, module_path!());
    line.push(' ');
    line.push_str(MESSAGE);
    line.push('\n');
    line
}

/// An armed deadline; [`Armed::claim`] it once the handlers have answered.
pub(super) struct Armed {
    late: &'static Late,
    #[cfg(unix)]
    timer: Option<sys::Timer>,
}

/// Arms the deadline at `at`. The late answer lives for the rest of the process (it is one small
/// allocation per `run`, and a signal handler may read it at any time).
pub(super) fn arm(late: Late, at: Instant) -> Armed {
    let late: &'static Late = Box::leak(Box::new(late));
    let after = at.saturating_duration_since(Instant::now());
    #[cfg(unix)]
    if let Some(timer) = sys::arm(late, after) {
        return Armed {
            late,
            timer: Some(timer),
        };
    }
    spawn_watchdog(late, after);
    Armed {
        late,
        #[cfg(unix)]
        timer: None,
    }
}

impl Armed {
    /// Takes the right to answer from the deadline: `true` when the caller answers (the timer is
    /// disarmed), `false` when the late answer is being written (the process is about to exit).
    pub(super) fn claim(self) -> bool {
        let won = self.late.claim();
        #[cfg(unix)]
        if let (true, Some(t)) = (won, self.timer) {
            sys::disarm(&t);
        }
        won
    }
}

/// The fallback: a thread that sleeps until the deadline, then answers if nobody has.
fn spawn_watchdog(late: &'static Late, after: Duration) {
    let _ = std::thread::Builder::new()
        .name("agenthooks-watchdog".into())
        // It only sleeps, then writes a prepared answer: a small stack is cheaper to map.
        .stack_size(256 << 10)
        .spawn(move || {
            std::thread::sleep(after);
            if late.claim() {
                fire(late);
            }
        });
}

/// Writes the late answer and ends the process.
#[cfg(unix)]
fn fire(late: &Late) -> ! {
    sys::fire(late)
}

/// Writes the late answer and ends the process.
#[cfg(not(unix))]
fn fire(late: &Late) -> ! {
    tracing::warn!("{MESSAGE}");
    let code = StdoutGuard::none().finish(&late.response);
    #[allow(clippy::exit)] // the late answer is final: end the process
    std::process::exit(code)
}

/// The log file's path for the signal handler (`None`: no such path can be passed to `open`).
#[cfg(unix)]
fn c_path(p: &Path) -> Option<std::ffi::CString> {
    use std::os::unix::ffi::OsStrExt;
    std::ffi::CString::new(p.as_os_str().as_bytes()).ok()
}

#[cfg(unix)]
#[allow(unsafe_code)]
mod sys {
    //! The timer, the `SIGALRM` handler and the async-signal-safe writes.
    use std::ffi::{CStr, CString};
    use std::os::fd::AsRawFd;
    use std::ptr;
    use std::sync::atomic::{AtomicPtr, Ordering};
    use std::time::{Duration, Instant};

    use libc::c_int;

    use super::{c_path, log_line, Late, Sink, StdoutGuard};

    /// What the handler writes, as raw descriptors and C strings.
    pub(super) struct Prepared {
        /// Where the answer's stdout goes: the saved real stdout, else fd 1.
        out: c_int,
        /// The log line (empty: none) and its file (`None`: stderr).
        line: Vec<u8>,
        line_file: Option<CString>,
        /// A handler's stray stdout buffer and its log file.
        stray: Option<(c_int, CString)>,
    }

    impl Prepared {
        pub(super) fn new(guard: &StdoutGuard, log: Option<&Sink>, at: Instant) -> Self {
            let (line, line_file) = match log {
                None => (Vec::new(), None),
                Some(Sink::Stderr) => (log_line(at).into_bytes(), None),
                Some(Sink::File(p)) => match c_path(p) {
                    Some(c) => (log_line(at).into_bytes(), Some(c)),
                    None => (Vec::new(), None),
                },
            };
            Self {
                out: guard.saved.as_ref().map_or(1, AsRawFd::as_raw_fd),
                line,
                line_file,
                stray: guard
                    .stray
                    .as_ref()
                    .and_then(|s| Some((s.file.as_raw_fd(), c_path(&s.log)?))),
            }
        }
    }

    /// The armed late answer, for the handler (null: none).
    static ARMED: AtomicPtr<Late> = AtomicPtr::new(ptr::null_mut());

    /// `SIGALRM`'s previous disposition, restored on disarm.
    pub(super) struct Timer {
        old: libc::sigaction,
    }

    extern "C" fn on_alarm(_signal: c_int) {
        let p = ARMED.load(Ordering::SeqCst);
        // SAFETY: a non-null pointer is a leaked `Late`, never freed.
        if let Some(late) = unsafe { p.as_ref() } {
            if late.claim() {
                fire(late);
            }
        }
    }

    /// Installs the handler and starts a one-shot timer; `None` (nothing left installed) when
    /// either fails.
    pub(super) fn arm(late: &'static Late, after: Duration) -> Option<Timer> {
        ARMED.store(ptr::from_ref(late).cast_mut(), Ordering::SeqCst);
        // SAFETY: `sigaction` is plain old data; all-zero is a valid value, then filled in.
        let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
        sa.sa_sigaction = on_alarm as extern "C" fn(c_int) as libc::sighandler_t;
        // Restart a system call the signal interrupts when the handler returns (it returns
        // only when the handlers have already answered).
        sa.sa_flags = libc::SA_RESTART;
        // SAFETY: valid pointers to owned values.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        unsafe {
            libc::sigemptyset(&raw mut sa.sa_mask);
            if libc::sigaction(libc::SIGALRM, &raw const sa, &raw mut old) != 0 {
                ARMED.store(ptr::null_mut(), Ordering::SeqCst);
                return None;
            }
        }
        // A zero `it_value` would disarm: a deadline already past fires after 1 µs.
        let after = after.max(Duration::from_micros(1));
        // SAFETY: `itimerval` is plain old data.
        let mut it: libc::itimerval = unsafe { std::mem::zeroed() };
        it.it_value.tv_sec = libc::time_t::try_from(after.as_secs()).unwrap_or(libc::time_t::MAX);
        #[allow(clippy::unnecessary_fallible_conversions)] // `suseconds_t` is `i32` on macOS
        let usec = libc::suseconds_t::try_from(after.subsec_micros()).unwrap_or(0);
        it.it_value.tv_usec = usec;
        let timer = Timer { old };
        // SAFETY: a valid `itimerval`; the old value is not wanted.
        if unsafe { libc::setitimer(libc::ITIMER_REAL, &raw const it, ptr::null_mut()) } != 0 {
            disarm(&timer);
            return None;
        }
        Some(timer)
    }

    /// Stops the timer and restores `SIGALRM`'s previous disposition.
    pub(super) fn disarm(t: &Timer) {
        // SAFETY: a zero `itimerval` stops the timer; `old` is what `sigaction` returned.
        unsafe {
            let zero: libc::itimerval = std::mem::zeroed();
            libc::setitimer(libc::ITIMER_REAL, &raw const zero, ptr::null_mut());
            libc::sigaction(libc::SIGALRM, &raw const t.old, ptr::null_mut());
        }
        ARMED.store(ptr::null_mut(), Ordering::SeqCst);
    }

    /// Writes the late answer with async-signal-safe calls only, then `_exit`s.
    pub(super) fn fire(late: &Late) -> ! {
        let p = &late.prepared;
        if !p.line.is_empty() {
            match &p.line_file {
                None => write_all(2, &p.line),
                Some(f) => append_to(f, |fd| write_all(fd, &p.line)),
            }
        }
        write_all(p.out, &late.response.stdout);
        write_all(2, &late.response.stderr);
        if let Some((buf, log)) = &p.stray {
            keep_stray(*buf, log);
        }
        // SAFETY: `_exit` ends the process without running anything else (async-signal-safe).
        unsafe { libc::_exit(late.response.exit_code) }
    }

    /// `write(2)` until done or an error (a closed pipe is not an error worth more here).
    fn write_all(fd: c_int, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            // SAFETY: a valid buffer of `bytes.len()` bytes.
            let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
            match usize::try_from(n) {
                Ok(0) => return,
                Ok(n) => bytes = &bytes[n..],
                Err(_) if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    }

    /// Opens `path` for appending (creating it and, when that fails, its directories), runs `f`
    /// on the descriptor and closes it.
    fn append_to(path: &CStr, f: impl FnOnce(c_int)) {
        let flags = libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT | libc::O_CLOEXEC;
        let open = || {
            // SAFETY: a NUL-terminated path.
            unsafe { libc::open(path.as_ptr(), flags, 0o666 as libc::c_uint) }
        };
        let mut fd = open();
        if fd < 0 {
            make_parents(path.to_bytes());
            fd = open();
        }
        if fd >= 0 {
            f(fd);
            // SAFETY: the descriptor opened above.
            unsafe { libc::close(fd) };
        }
    }

    /// `mkdir` of every ancestor of `path`, on a stack copy (no allocation).
    fn make_parents(path: &[u8]) {
        let mut buf = [0u8; 4096];
        if path.len() >= buf.len() {
            return;
        }
        buf[..path.len()].copy_from_slice(path);
        for i in 1..path.len() {
            if buf[i] == b'/' {
                buf[i] = 0;
                // SAFETY: `buf` is NUL-terminated at `i`.
                unsafe { libc::mkdir(buf.as_ptr().cast(), 0o777) };
                buf[i] = b'/';
            }
        }
    }

    /// Appends the stray-stdout buffer `buf` (if not empty) to `log`.
    fn keep_stray(buf: c_int, log: &CStr) {
        // SAFETY: a valid descriptor; `lseek` only moves its offset.
        let end = unsafe { libc::lseek(buf, 0, libc::SEEK_END) };
        if end <= 0 {
            return;
        }
        append_to(log, |fd| {
            let mut chunk = [0u8; 4096];
            let mut off: libc::off_t = 0;
            while off < end {
                // SAFETY: a valid buffer of `chunk.len()` bytes.
                let n = unsafe { libc::pread(buf, chunk.as_mut_ptr().cast(), chunk.len(), off) };
                let Ok(n) = usize::try_from(n) else { return };
                if n == 0 {
                    return;
                }
                write_all(fd, &chunk[..n]);
                off += libc::off_t::try_from(n).unwrap_or(libc::off_t::MAX);
            }
        });
    }
}
