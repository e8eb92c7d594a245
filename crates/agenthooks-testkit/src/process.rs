//! Running a hook (or any command) the way a test or a benchmark does: spawn it, hand it its
//! payload on stdin, close stdin.
//!
//! ```no_run
//! use std::process::{Command, Stdio};
//!
//! let mut cmd = Command::new("my-hook");
//! cmd.args(["agenthooks", "run", "--provider=claude-code"]).stdout(Stdio::piped());
//! let out = agenthooks_testkit::process::output_of(&mut cmd, br#"{"hook_event_name":"Stop"}"#)?;
//! assert!(out.status.success());
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{ErrorKind, Write as _};
use std::process::{Child, Command, Output, Stdio};

/// Spawns `cmd` with a piped stdin, writes `input` to it and closes it; stdout and stderr are
/// what `cmd` was given. A child that exits without reading its input is not an error (the
/// broken pipe is ignored): what it answered is the caller's to judge.
///
/// # Errors
/// Spawning failed, or writing the input failed other than with a broken pipe.
pub fn feed(cmd: &mut Command, input: &[u8]) -> std::io::Result<Child> {
    let mut child = cmd.stdin(Stdio::piped()).spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        match stdin.write_all(input) {
            Err(e) if e.kind() != ErrorKind::BrokenPipe => return Err(e),
            _ => {}
        }
    }
    Ok(child)
}

/// [`feed`], then waits for the child and collects what it wrote to piped streams.
///
/// # Errors
/// As [`feed`], or waiting for the child failed.
pub fn output_of(cmd: &mut Command, input: &[u8]) -> std::io::Result<Output> {
    feed(cmd, input)?.wait_with_output()
}

#[cfg(all(test, unix))]
mod tests {
    use super::{feed, output_of};
    use std::process::{Command, Stdio};

    #[test]
    fn the_input_arrives_and_stdin_is_closed() {
        let out = output_of(Command::new("cat").stdout(Stdio::piped()), b"payload").unwrap();
        assert_eq!((out.status.success(), out.stdout.as_slice()), (true, &b"payload"[..]));
    }

    #[test]
    fn a_child_that_reads_nothing_is_no_error() {
        let big = vec![b'x'; 1 << 20];
        let status = feed(&mut Command::new("true"), &big).unwrap().wait().unwrap();
        assert!(status.success());
    }
}
