//! Executed test: every rendered command, run through `sh -c` from a directory whose path has
//! spaces, quotes, `$`, backticks and more, reaches the program with exactly the intended argv
//! (and, for Codex's detached wrapper, the payload on stdin).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use agenthooks_install::render;

use crate::common::{cases, commands_in, manifest, temp_dir};

const RECORDER: &str = r#"#!/bin/sh
out="$AGENTHOOKS_ARGV_OUT"
printf '%s\0' "$0" "$@" > "$out.tmp"
cat > "$out.stdin"
mv "$out.tmp" "$out"
"#;

fn wait_for(path: &Path) -> Vec<u8> {
    let start = Instant::now();
    loop {
        if let Ok(b) = std::fs::read(path) {
            return b;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[test]
fn rendered_commands_reach_the_binary_with_the_intended_argv() {
    use std::os::unix::fs::PermissionsExt;

    let base = temp_dir("exec");
    let weird = base.join("dir with spaces 'single' \"double\" $HOME `echo tick` $(touch pwned) ; & | * ~ \\ end");
    std::fs::create_dir_all(&weird).unwrap();
    let program = weird.join("rec'order $x `y`");
    std::fs::write(&program, RECORDER).unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let args = ["--config", "it's \"quoted\" $HOME `id` \\ $(x) \t end", "", "A=b"];
    let mut command: Vec<&str> = vec![program.to_str().unwrap()];
    command.extend(args);
    let m = manifest(&command);
    let outs = base.join("outs");
    std::fs::create_dir_all(&outs).unwrap();
    let payload = br#"{"hook_event_name":"X","tool_input":{"command":"echo 'hi' > \"m\""}}"#;
    let mut ran = 0;
    for (name, target) in cases(&weird, &weird.join("home")) {
        let r = render(&m, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
        for f in &r.files {
            for cmd in commands_in(&f.path, &f.contents) {
                if !cmd.contains("agenthooks run") {
                    continue;
                }
                ran += 1;
                let out: PathBuf = outs.join(format!("{ran}"));
                let mut child = Command::new("sh")
                    .arg("-c")
                    .arg(&cmd)
                    .current_dir(&weird)
                    .env("AGENTHOOKS_ARGV_OUT", &out)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::null())
                    .spawn()
                    .unwrap();
                child.stdin.take().unwrap().write_all(payload).unwrap();
                let status = child.wait().unwrap();
                assert!(status.success(), "{name}: `{cmd}` exited {status}");
                let argv_bytes = wait_for(&out);
                let argv: Vec<String> = argv_bytes
                    .split(|b| *b == 0)
                    .map(|s| String::from_utf8(s.to_vec()).unwrap())
                    .collect();
                // printf '%s\0' ends with a NUL: drop the trailing empty field.
                let argv = &argv[..argv.len() - 1];
                let event = cmd.split("--event=").nth(1).unwrap().split(' ').next().unwrap();
                let timeout = cmd
                    .split("--timeout=")
                    .nth(1)
                    .unwrap()
                    .split([' ', '<'])
                    .next()
                    .unwrap();
                let mut expected: Vec<String> = command.iter().map(|s| (*s).to_owned()).collect();
                expected.extend([
                    "agenthooks".to_owned(),
                    "run".to_owned(),
                    format!("--provider={}", target.provider),
                    format!("--event={event}"),
                    format!("--timeout={timeout}"),
                ]);
                // a matcher the agent cannot express travels as the runner's filter
                if let Some(rest) = cmd.split("--tools=").nth(1) {
                    let spec = rest.split(['\'', ' ', '<']).next().unwrap();
                    expected.push(format!("--tools={spec}"));
                }
                assert_eq!(argv, expected.as_slice(), "{name}: `{cmd}`");
                let stdin = wait_for(&PathBuf::from(format!("{}.stdin", out.display())));
                assert_eq!(stdin, payload, "{name}: stdin of `{cmd}`");
            }
        }
    }
    assert!(ran >= 60, "only {ran} commands ran");
    assert!(
        !weird.join("pwned").exists() && !base.join("pwned").exists(),
        "command substitution happened"
    );
}
