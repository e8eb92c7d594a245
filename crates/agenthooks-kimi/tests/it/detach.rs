//! The opt-in detach helper, end to end.
use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use agenthooks_kimi::detach::{take, Detach};

const OUT_ENV: &str = "KIMI_DETACH_TEST_OUT";

fn out_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("agenthooks-kimi-it-{}-{name}", std::process::id()));
    let _ = fs::remove_file(&p);
    p
}

fn wait_for(path: &PathBuf) -> Vec<u8> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(bytes) = fs::read(path) {
            if !bytes.is_empty() {
                return bytes;
            }
        }
        assert!(Instant::now() < deadline, "worker never wrote {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The worker side: in a normal test run there is no detached work and this does nothing;
/// started by `detach_runs_the_current_executable_as_a_worker`, it echoes the payload.
#[test]
fn detach_worker_entry() {
    let work = take().unwrap_or_else(|e| panic!("{e}"));
    if let (Some(work), Some(out)) = (work, std::env::var_os(OUT_ENV)) {
        let mut bytes = work.task.into_bytes();
        bytes.push(b'|');
        bytes.extend_from_slice(&work.payload);
        let tmp = PathBuf::from(&out).with_extension("tmp");
        fs::write(&tmp, bytes).unwrap_or_else(|e| panic!("{e}"));
        fs::rename(&tmp, &out).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn detach_runs_the_current_executable_as_a_worker() {
    let out = out_path("echo");
    let payload = br#"{"hook_event_name":"PostToolUse","tool_output":"ok"}"#;
    let pid = Detach::new("echo")
        .with_args(["detach::detach_worker_entry", "--exact", "--test-threads=1"])
        .with_env(OUT_ENV, &out)
        .spawn(payload)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(pid > 0);
    let got = wait_for(&out);
    let mut want = b"echo|".to_vec();
    want.extend_from_slice(payload);
    assert_eq!(got, want);
    let _ = fs::remove_file(&out);
}

/// Kimi kills the hook's process group and waits for its stdout/stderr to close: the worker
/// must be in another group, hold neither pipe, and not be waited for.
#[cfg(target_os = "linux")]
#[test]
fn worker_is_in_its_own_group_with_null_stdio_and_not_awaited() {
    let out = out_path("sh");
    let script = r#"sleep 0.5
fd1=$(readlink /proc/$$/fd/1)
fd2=$(readlink /proc/$$/fd/2)
pgid=$(cut -d' ' -f5 /proc/$$/stat)
payload=$(cat "$AGENTHOOKS_DETACHED_PAYLOAD_FILE")
printf '%s %s %s %s %s' "$AGENTHOOKS_DETACHED_TASK" "$fd1" "$fd2" "$pgid" "$payload" > "$OUT.tmp"
mv "$OUT.tmp" "$OUT""#;
    let started = Instant::now();
    let pid = Detach::new("probe")
        .with_program("/bin/sh")
        .with_args(["-c", script])
        .with_env("OUT", &out)
        .spawn(b"PAYLOAD")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "spawn waited for the worker"
    );
    let got = String::from_utf8(wait_for(&out)).unwrap_or_default();
    let fields: Vec<_> = got.split(' ').collect();
    assert_eq!(fields.len(), 5, "{got}");
    assert_eq!(fields[0], "probe");
    assert_eq!(fields[1], "/dev/null");
    assert_eq!(fields[2], "/dev/null");
    assert_eq!(fields[3], pid.to_string(), "worker leads its own process group");
    let own = fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let own_pgid = own.rsplit(')').next().and_then(|r| r.split(' ').nth(3));
    assert_ne!(Some(fields[3]), own_pgid);
    assert_eq!(fields[4], "PAYLOAD");
    let _ = fs::remove_file(&out);
}
