//! Running a process under a hard timeout.
//!
//! The child is started in its own process group, so on timeout (and after it exits, to reap
//! helpers it left behind) the whole group is killed: agents start node, native binaries,
//! shells and hooks below them. Only that group, which this suite created, is ever signalled.

use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks_testkit::fake::Pipes;

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
    let pipes = Pipes::take(&mut child);
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
    if !timed_out {
        // An agent that fires hooks without waiting for them (Kimi's post-tool events) can exit
        // while one still runs: it finishes (and records) before the group is reaped.
        let until = Instant::now() + HOOK_GRACE;
        while hooks_running(pgid) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(25));
        }
    }
    // Helpers left in the group would keep the pipes open.
    kill_group(pgid);
    let (stdout, stderr) = pipes.collect(Instant::now() + Duration::from_secs(5));
    Ok(ProcOutput {
        code: status.code(),
        success: status.success(),
        timed_out,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        elapsed,
    })
}

/// How long an exited agent's hook processes may take to finish before its group is killed.
const HOOK_GRACE: Duration = Duration::from_secs(5);

/// Whether a process of group `pgid` runs the suite's hook binary (`agenthooks-e2e-hook`), read
/// from `/proc` (Linux, where the suite runs; elsewhere: never waited for).
fn hooks_running(pgid: u32) -> bool {
    #[cfg(target_os = "linux")]
    {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return false;
        };
        dir.flatten().any(|e| {
            let p = e.path();
            let in_group = std::fs::read_to_string(p.join("stat")).ok().is_some_and(|stat| {
                // `pid (comm) state ppid pgrp …`: comm may hold spaces and parentheses.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(2).map(str::to_owned))
                    .is_some_and(|g| g == pgid.to_string())
            });
            in_group
                && std::fs::read(p.join("cmdline")).is_ok_and(|c| {
                    c.windows(b"agenthooks-e2e-hook".len())
                        .any(|w| w == b"agenthooks-e2e-hook")
                })
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pgid;
        false
    }
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
    #[cfg(target_os = "linux")]
    fn a_hook_still_running_when_the_agent_exits_finishes_before_the_group_is_killed() {
        let dir = std::env::temp_dir().join(format!("agenthooks-e2e-grace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let mark = dir.join("mark");
        // The "agent" leaves a hook (argv[0] is the suite's hook binary) running and exits.
        let script = format!(
            "(exec -a agenthooks-e2e-hook sh -c 'sleep 0.4; echo recorded > {}') & exit 0",
            mark.display()
        );
        let o = output_with_timeout(Command::new("bash").args(["-c", &script]), Duration::from_secs(10)).expect("run");
        assert!(o.success);
        assert_eq!(std::fs::read_to_string(&mark).unwrap_or_default(), "recorded\n");
        // Any other helper is not waited for: the group is killed at once.
        let started = Instant::now();
        let o = output_with_timeout(
            Command::new("bash").args(["-c", "sleep 30 & exit 0"]),
            Duration::from_secs(10),
        )
        .expect("run");
        assert!(
            o.success && started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

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
