//! Running a process under a hard timeout.
//!
//! The child is started in its own process group, so on timeout (and after it exits, to reap
//! helpers it left behind) the whole group is killed: agents start node, native binaries,
//! shells and hooks below them. Only that group, which this suite created, is ever signalled.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a finished (or killed) process produced.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ProcOutput {
    /// The exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    /// Exit code 0.
    pub success: bool,
    /// Killed because the timeout passed.
    pub timed_out: bool,
    /// Stdout (lossy UTF-8).
    pub stdout: String,
    /// Stderr (lossy UTF-8).
    pub stderr: String,
    /// Wall time.
    pub elapsed: Duration,
}

/// Runs `cmd` (stdin from `/dev/null` unless the caller set it) with stdout and stderr
/// captured, killing its process group after `timeout`.
pub fn output_with_timeout(cmd: &mut Command, timeout: Duration) -> std::io::Result<ProcOutput> {
    let started = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let pgid = child.id();
    let (tx, rx) = mpsc::channel::<(u8, Vec<u8>)>();
    for (which, pipe) in [
        (1u8, child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
        (2u8, child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
    ] {
        if let Some(mut p) = pipe {
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = p.read_to_end(&mut buf);
                let _ = tx.send((which, buf));
            });
        }
    }
    drop(tx);
    let deadline = started + timeout;
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if Instant::now() >= deadline {
            timed_out = true;
            kill_group(pgid);
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(25));
    };
    let elapsed = started.elapsed();
    // Helpers left in the group would keep the pipes open.
    kill_group(pgid);
    let mut out = ProcOutput {
        code: status.code(),
        success: status.success(),
        timed_out,
        elapsed,
        ..ProcOutput::default()
    };
    let drain_until = Instant::now() + Duration::from_secs(5);
    for _ in 0..2 {
        match rx.recv_timeout(drain_until.saturating_duration_since(Instant::now())) {
            Ok((1, b)) => out.stdout = String::from_utf8_lossy(&b).into_owned(),
            Ok((_, b)) => out.stderr = String::from_utf8_lossy(&b).into_owned(),
            Err(_) => break,
        }
    }
    Ok(out)
}

/// Sends SIGKILL to the process group `pgid` (a group this suite created).
pub fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_code() {
        let o = output_with_timeout(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(10),
        )
        .expect("run");
        assert_eq!((o.code, o.success, o.timed_out), (Some(3), false, false));
        assert_eq!((o.stdout.as_str(), o.stderr.as_str()), ("out\n", "err\n"));
    }

    #[test]
    fn kills_the_whole_group_on_timeout() {
        let t = Instant::now();
        // The grandchild keeps the pipes open: only a group kill ends the run.
        let o = output_with_timeout(
            Command::new("sh").args(["-c", "sleep 30 & sleep 30; echo never"]),
            Duration::from_millis(300),
        )
        .expect("run");
        assert!(o.timed_out);
        assert!(!o.stdout.contains("never"));
        assert!(t.elapsed() < Duration::from_secs(10), "took {:?}", t.elapsed());
    }
}
