//! The process spawner: runs a hook command the way an agent does and interprets the result.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use agenthooks_core::Transport;

use super::{payload_value, FakeAgent, HookOutput, Verdict};

/// A child's piped stdout and stderr, each read to its end on a thread of its own (a child that
/// fills one pipe while the other is read cannot block).
#[derive(Debug)]
pub struct Pipes(mpsc::Receiver<(u8, Vec<u8>)>);

impl Pipes {
    /// Starts reading the child's piped stdout and stderr (a stream not piped reads as empty).
    pub fn take(child: &mut Child) -> Self {
        let (tx, rx) = mpsc::channel::<(u8, Vec<u8>)>();
        for (tag, pipe) in [
            (1u8, child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
            (2u8, child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>)),
        ] {
            if let Some(mut p) = pipe {
                let tx = tx.clone();
                std::thread::spawn(move || {
                    let mut buf = Vec::new();
                    let _ = p.read_to_end(&mut buf);
                    let _ = tx.send((tag, buf));
                });
            }
        }
        Self(rx)
    }

    /// `(stdout, stderr)`, waiting for them until `until`: a stream a background process still
    /// holds open then is cut off (empty).
    pub fn collect(self, until: Instant) -> (Vec<u8>, Vec<u8>) {
        let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            match self.0.recv_timeout(until.saturating_duration_since(Instant::now())) {
                Ok((1, b)) => stdout = b,
                Ok((_, b)) => stderr = b,
                Err(_) => break,
            }
        }
        (stdout, stderr)
    }
}

/// A hook command.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HookCommand {
    /// A command string as written in the agent's config; the agent runs it through its shell.
    Shell(String),
    /// An executable and its arguments, run without a shell (Codex `notify`, Claude `args`).
    Exec(Vec<String>),
}

impl HookCommand {
    /// A command from command-line words: one word is a config command string (run through
    /// the shell, like the agents do); several are shell-quoted and joined into one.
    pub fn from_args(args: &[String]) -> Self {
        match args {
            [one] => Self::Shell(one.clone()),
            // Words from a command line hold no NUL; one that does is run without a shell,
            // where spawning it reports the error.
            many => shell_join(many).map_or_else(|_| Self::Exec(many.to_vec()), Self::Shell),
        }
    }
}

/// Joins words into a POSIX shell command line, quoting where needed: the quoter install writes
/// hook commands with ([`agenthooks_runtime::shell::join`], re-exported), so a replay runs what
/// install wrote.
///
/// ```
/// use agenthooks_testkit::fake::shell_join;
/// assert_eq!(shell_join(&["echo", "a b", "it's"])?, r#"echo 'a b' "it's""#);
/// # Ok::<(), agenthooks_runtime::shell::QuoteError>(())
/// ```
pub use agenthooks_runtime::shell::join as shell_join;

/// Options of [`run`].
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SpawnOptions {
    /// The config's `timeout` value, in the agent's unit ([`FakeAgent::timeout_unit`]);
    /// `None` uses the agent's default.
    pub timeout: Option<u64>,
    /// The working directory; default: the payload's `cwd` when it exists, else the current one.
    pub cwd: Option<PathBuf>,
    /// Extra env vars (the config's `env`), applied last.
    pub env: Vec<(String, String)>,
    /// Start from an empty environment instead of this process's (the agent's own env).
    pub clear_env: bool,
    /// Overrides the agent's transport (e.g. the legacy Cursor CLI argv payload).
    pub transport: Option<Transport>,
}

impl SpawnOptions {
    /// Sets the timeout (agent unit).
    #[must_use]
    pub fn with_timeout(mut self, t: u64) -> Self {
        self.timeout = Some(t);
        self
    }

    /// Sets the working directory.
    #[must_use]
    pub fn with_cwd(mut self, d: impl Into<PathBuf>) -> Self {
        self.cwd = Some(d.into());
        self
    }

    /// Adds an env var.
    #[must_use]
    pub fn with_env(mut self, k: impl Into<String>, v: impl Into<String>) -> Self {
        self.env.push((k.into(), v.into()));
        self
    }
}

/// What [`run`] did and saw.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Spawned {
    /// The process's result.
    pub output: HookOutput,
    /// The agent's reading of it.
    pub verdict: Verdict,
    /// The exact argv spawned.
    pub argv: Vec<String>,
    /// The env vars the agent exported (besides its own environment and the config's).
    pub agent_env: Vec<(String, String)>,
    /// The working directory.
    pub cwd: PathBuf,
    /// The timeout applied.
    pub timeout: Duration,
    /// How long the hook ran.
    pub elapsed: Duration,
}

/// The hook could not be started.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SpawnError {
    /// An empty command.
    #[error("empty hook command")]
    EmptyCommand,
    /// The process could not be spawned.
    #[error("cannot start `{program}`: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The working directory is unusable.
    #[error("cannot determine the working directory: {0}")]
    Cwd(#[source] std::io::Error),
}

/// Runs `cmd` as `agent` runs a hook for `native_event` with `payload`: through the agent's
/// shell, payload on stdin (or appended to argv for argv transports), the agent's env vars, its
/// working directory and its timeout; then interprets the result by the agent's rules.
pub fn run(
    agent: &dyn FakeAgent,
    cmd: &HookCommand,
    native_event: &str,
    payload: &[u8],
    opts: &SpawnOptions,
) -> Result<Spawned, SpawnError> {
    let pv = payload_value(payload);
    let cwd = match &opts.cwd {
        Some(d) => d.clone(),
        None => match agent.cwd(&pv).filter(|d| d.is_dir()) {
            Some(d) => d,
            None => std::env::current_dir().map_err(SpawnError::Cwd)?,
        },
    };
    let transport = opts.transport.unwrap_or_else(|| agent.transport(native_event));
    let payload_arg = String::from_utf8_lossy(payload).into_owned();
    let argv: Vec<String> = match (cmd, transport) {
        (HookCommand::Shell(s), Transport::Argv) => {
            let mut v: Vec<String> = agent.shell().iter().map(|x| (*x).to_owned()).collect();
            v.push(format!("{s} \"$@\""));
            v.push("agenthooks-hook".to_owned());
            v.push(payload_arg);
            v
        }
        (HookCommand::Shell(s), _) => {
            let mut v: Vec<String> = agent.shell().iter().map(|x| (*x).to_owned()).collect();
            v.push(s.clone());
            v
        }
        (HookCommand::Exec(words), Transport::Argv) => {
            let mut v = words.clone();
            v.push(payload_arg);
            v
        }
        (HookCommand::Exec(words), _) => words.clone(),
    };
    let Some((program, args)) = argv.split_first() else {
        return Err(SpawnError::EmptyCommand);
    };
    let agent_env = agent.hook_env(native_event, &pv, &cwd);
    let timeout = agent.timeout(native_event, opts.timeout);

    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(&cwd)
        .stdin(if transport == Transport::Argv {
            Stdio::null()
        } else {
            Stdio::piped()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if opts.clear_env {
        command.env_clear();
    }
    command.envs(agent_env.iter().map(|(k, v)| (k, v)));
    command.envs(opts.env.iter().map(|(k, v)| (k, v)));
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Its own process group, like Kimi (and a terminal's job control) gives hooks.
        command.process_group(0);
    }
    let started = Instant::now();
    let mut child = command.spawn().map_err(|source| SpawnError::Spawn {
        program: program.clone(),
        source,
    })?;

    if let Some(mut stdin) = child.stdin.take() {
        let bytes = payload.to_vec();
        std::thread::spawn(move || {
            // A hook that does not read its stdin closes the pipe: not an error.
            let _ = stdin.write_all(&bytes);
        });
    }
    let pipes = Pipes::take(&mut child);

    let deadline = started + timeout;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() >= deadline => {
                timed_out = true;
                kill_tree(&mut child);
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let elapsed = started.elapsed();
    // Collect the streams; a background process that keeps them open is cut off at the deadline
    // (or one second after exit, whichever is later).
    let grace = deadline.max(Instant::now() + Duration::from_secs(1));
    let (stdout, stderr) = pipes.collect(grace);
    let output = if timed_out {
        HookOutput::timed_out(stdout, stderr)
    } else {
        HookOutput {
            exit_code: status.and_then(|s| s.code()),
            stdout,
            stderr,
            timed_out: false,
        }
    };
    let verdict = agent.interpret(native_event, payload, &output);
    Ok(Spawned {
        output,
        verdict,
        argv,
        agent_env,
        cwd,
        timeout,
        elapsed,
    })
}

fn kill_tree(child: &mut std::process::Child) {
    // Only the hook process itself: std has no process-group kill, and external `kill -PGID`
    // is not safe everywhere (procps-ng 4.0.2 mis-parses negative ids). Processes the hook
    // started may outlive it; their output is cut off at the deadline.
    let _ = child.kill();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_args_quotes() {
        assert_eq!(
            HookCommand::from_args(&["./hook --x".into()]),
            HookCommand::Shell("./hook --x".into())
        );
        assert_eq!(
            HookCommand::from_args(&["bash".into(), "-c".into(), "echo $X".into()]),
            HookCommand::Shell("bash -c 'echo $X'".into())
        );
        assert_eq!(shell_join(&[String::new()]).unwrap(), "''");
        assert_eq!(
            HookCommand::from_args(&["a".into(), "b\0".into()]),
            HookCommand::Exec(vec!["a".into(), "b\0".into()])
        );
    }
}
