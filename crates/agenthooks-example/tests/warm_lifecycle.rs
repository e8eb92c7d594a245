//! Warm mode's lifecycle on the real binary: `secret-guard agenthooks install --warm`, then the
//! rendered `SessionStart` command hook (run through `sh -c`, as Claude Code runs it) starts the
//! warm server detached; racing hooks start one server (the start lock); an upgraded binary's
//! config makes the old server refuse its hooks (it stays up: a hook cannot stop it), and the
//! next session start of the new build retires it and starts the new build; the server outlives
//! idle gaps while its session is open and exits a grace after the session ends
//! (`AGENTHOOKS_WARM_IDLE_SECS`); the prompt hook restarts a server killed between turns; an
//! impostor on the port gets no credential, the user is told and `doctor --warm` names it, and
//! neither it nor a dripping listener holds a hook past its timeout; Copilot CLI keeps command
//! hooks in warm mode unless `--copilot-allow-localhost`, and the server answers its route.
//!
//! The binary is a copy in a scratch directory, so "upgrading" it (a new modification time: a
//! new build id) does not touch cargo's build output. Every server this test starts is its
//! own: found by the warm directory in its environment, and stopped by its pid.
#![cfg(all(unix, feature = "full"))]
// The start-up figure is this test's output.
#![allow(clippy::print_stderr)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

struct Scratch {
    dir: PathBuf,
    bin: PathBuf,
    /// The project root this binary installs into.
    repo: PathBuf,
    /// Whether dropping this removes the scratch directory and stops its servers (a sibling
    /// binary shares its owner's).
    owner: bool,
}

impl Scratch {
    fn new() -> Self {
        Self::named("warm-lifecycle")
    }

    fn named(tag: &str) -> Self {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["repo", "home/.claude", "bin", "state"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        let bin = dir.join("bin/guard");
        std::fs::copy(env!("CARGO_BIN_EXE_secret-guard"), &bin).unwrap();
        let repo = dir.join("repo");
        Self {
            dir,
            bin,
            repo,
            owner: true,
        }
    }

    /// Another hook binary (a copy of the same one, as `bin/<name>`) in the same HOME and warm
    /// base, installing into its own project `repo-<name>`.
    fn sibling(&self, name: &str) -> Self {
        let bin = self.dir.join("bin").join(name);
        std::fs::copy(env!("CARGO_BIN_EXE_secret-guard"), &bin).unwrap();
        let repo = self.dir.join(format!("repo-{name}"));
        std::fs::create_dir_all(&repo).unwrap();
        Self {
            dir: self.dir.clone(),
            bin,
            repo,
            owner: false,
        }
    }

    /// The base of the warm directories (`AGENTHOOKS_WARM_DIR`).
    fn warm_base(&self) -> PathBuf {
        self.dir.join("warm")
    }

    /// This binary's warm directory: `<base>/<name>-<hash of its path>`.
    fn warm_dir(&self) -> PathBuf {
        let env = vec![(
            agenthooks::runtime::warm_state::WARM_DIR_ENV.to_owned(),
            self.warm_base().display().to_string(),
        )];
        agenthooks::runtime::warm_state::WarmDir::for_exe(&env, &self.bin)
            .path()
            .to_path_buf()
    }

    fn env(&self, c: &mut Command, idle_secs: u64) {
        c.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.join("home"))
            .env("AGENTHOOKS_WARM_DIR", self.warm_base())
            .env("AGENTHOOKS_STATE_DIR", self.dir.join("state"))
            .env("AGENTHOOKS_WARM_IDLE_SECS", idle_secs.to_string());
    }

    /// `guard agenthooks <args> --root repo --home home`.
    fn guard(&self, args: &[&str]) -> Output {
        let mut c = Command::new(&self.bin);
        c.arg("agenthooks").args(args);
        c.arg("--root").arg(&self.repo);
        c.arg("--home").arg(self.dir.join("home"));
        self.env(&mut c, 60);
        // A copy of the binary written by a parallel test may still be open in a child that
        // has not exec'd yet (ETXTBSY): retry.
        for _ in 0..50 {
            match c.output() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                r => return r.unwrap(),
            }
        }
        c.output().unwrap()
    }

    fn settings(&self) -> Value {
        // Warm hooks go to the git-ignored local file at project scope, command hooks to
        // settings.json.
        let local = self.repo.join(".claude/settings.local.json");
        let path = if local.exists() {
            local
        } else {
            self.repo.join(".claude/settings.json")
        };
        let text = std::fs::read_to_string(path).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    fn handler(&self, event: &str) -> Value {
        self.settings()["hooks"][event][0]["hooks"][0].clone()
    }

    /// Starts the rendered `SessionStart` command hook through `sh -c` with a payload.
    fn spawn_session_start(&self, idle_secs: u64) -> std::process::Child {
        let command = self.handler("SessionStart")["command"].as_str().unwrap().to_owned();
        assert!(command.ends_with(" --warm"), "{command}");
        self.spawn_hook(&command, idle_secs, "SessionStart", ("source", "startup"))
    }

    /// Starts `command` through `sh -c` (the warm directory's idle exit set to `idle_secs`)
    /// with a Claude payload of `event` carrying `field`.
    fn spawn_hook(&self, command: &str, idle_secs: u64, event: &str, field: (&str, &str)) -> std::process::Child {
        let mut c = Command::new("sh");
        c.arg("-c").arg(command);
        self.env(&mut c, idle_secs);
        let mut child = c
            .current_dir(&self.repo)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut payload = serde_json::json!({
            "session_id": "s-warm", "transcript_path": self.dir.join("t.jsonl"), "cwd": &self.repo,
            "hook_event_name": event,
        });
        payload[field.0] = Value::from(field.1);
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
        child
    }

    fn session_start(&self, idle_secs: u64) -> Output {
        let o = self.spawn_session_start(idle_secs).wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    }

    fn token(&self) -> String {
        std::fs::read_to_string(self.warm_dir().join("token"))
            .unwrap()
            .trim()
            .to_owned()
    }

    fn port(&self) -> u16 {
        let v: Value = serde_json::from_slice(&std::fs::read(self.warm_dir().join("config.json")).unwrap()).unwrap();
        u16::try_from(v["port"].as_u64().unwrap()).unwrap()
    }

    /// POSTs `body` to `path_and_query` with the token; the status and body.
    fn post(&self, path_and_query: &str, body: &str) -> Option<(u16, String)> {
        post_with(self.port(), &self.token(), path_and_query, body)
    }

    /// The answering server's pong.
    fn ping(&self) -> Option<Value> {
        let (status, body) = self.post("/v1/ping", "{}")?;
        (status == 200).then(|| serde_json::from_str(&body).ok()).flatten()
    }

    fn pong_pid(&self) -> u32 {
        let p = self.ping().expect("the warm server answers");
        u32::try_from(p["pid"].as_u64().unwrap()).unwrap()
    }

    /// Live `serve --http` processes of this binary whose warm base is this test's.
    fn servers(&self) -> Vec<u32> {
        self.servers_of(Some(&std::fs::canonicalize(&self.bin).unwrap()))
    }

    /// Live `serve --http` processes of `exe` (any: `None`) whose warm base is this test's.
    fn servers_of(&self, exe: Option<&Path>) -> Vec<u32> {
        let want = format!("AGENTHOOKS_WARM_DIR={}", self.warm_base().display());
        let mut out = Vec::new();
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
            if !args.iter().any(|a| *a == b"serve") || !args.iter().any(|a| *a == b"--http") {
                continue;
            }
            let environ = std::fs::read(e.path().join("environ")).unwrap_or_default();
            let ours = exe.is_none_or(|x| std::fs::read_link(e.path().join("exe")).is_ok_and(|p| p == x));
            if ours && environ.split(|b| *b == 0).any(|v| v == want.as_bytes()) && alive(pid) {
                out.push(pid);
            }
        }
        out
    }

    fn record(&self) -> Option<Value> {
        serde_json::from_slice(&std::fs::read(self.warm_dir().join("server.json")).ok()?).ok()
    }

    /// The build id the rendered hook URLs carry.
    fn url_build(&self) -> String {
        let url = self.handler("PreToolUse")["url"].as_str().unwrap().to_owned();
        let q = url.split_once('?').unwrap().1;
        q.split('&')
            .find_map(|p| p.strip_prefix("build="))
            .unwrap()
            .replace("%2D", "-")
    }

    /// A new build of the binary: the same bytes, a new modification time.
    fn upgrade(&self, secs_later: u64) {
        let f = std::fs::File::open(&self.bin).unwrap();
        f.set_modified(SystemTime::now() + Duration::from_secs(secs_later))
            .unwrap();
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.owner {
            return;
        }
        for pid in self.servers_of(None) {
            kill(pid);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether `pid` runs (exists and is not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, rest)| !rest.starts_with('Z')))
        .unwrap_or(false)
}

/// The process group of `pid`.
fn pgrp(pid: u32) -> Option<u32> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    s.rsplit_once(") ")?.1.split(' ').nth(2)?.parse().ok()
}

/// SIGKILL to one process this test started (through its hooks).
fn kill(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .stderr(Stdio::null())
        .status();
}

fn wait_until(what: &str, limit: Duration, mut f: impl FnMut() -> bool) {
    let t = Instant::now();
    while !f() {
        assert!(t.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

const PRE: &str = r#"{"session_id":"s-warm","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"toolu_1"}"#;

/// The rendered `PreToolUse` URL's path and query.
fn pre_route(s: &Scratch) -> String {
    let url = s.handler("PreToolUse")["url"].as_str().unwrap().to_owned();
    url.split_once(&format!(":{}", s.port())).unwrap().1.to_owned()
}

#[test]
fn the_warm_server_lives_as_the_issue_says() {
    let s = Scratch::new();
    let out = s.guard(&["install", "--provider", "claude-code", "--warm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(s.handler("PreToolUse")["type"], "http");
    let build_a = s.url_build();
    assert!(s.ping().is_none(), "no server before the first session start");

    // On demand: the session-start hook starts it detached and returns once it answers.
    let clock = Instant::now();
    s.session_start(60);
    let hook_ms = clock.elapsed().as_millis();
    let pong = s.ping().expect("the session-start hook started the server");
    let p1 = s.pong_pid();
    assert_eq!(pong["build"], build_a.as_str(), "{pong}");
    assert_eq!(pgrp(p1), Some(p1), "detached: its own process group");
    let rec = s.record().expect("server.json");
    assert_eq!(
        (rec["pid"].as_u64(), rec["port"].as_u64()),
        (Some(u64::from(p1)), Some(u64::from(s.port())))
    );
    // It answers the rendered hook route (a harmless command: no opinion).
    let (status, body) = s.post(&pre_route(&s), PRE).unwrap();
    assert_eq!(status, 200, "{body}");
    // doctor --warm: running, port, build.
    let out = s.guard(&["doctor", "--warm", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let wr = &report["warm"];
    assert_eq!(
        (wr["running"].as_bool(), wr["port"].as_u64(), wr["pid"].as_u64()),
        (Some(true), Some(u64::from(s.port())), Some(u64::from(p1))),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        (wr["build"].as_str(), wr["config_build"].as_str()),
        (Some(build_a.as_str()), Some(build_a.as_str()))
    );
    assert_eq!(wr["dir"].as_str(), Some(s.warm_dir().to_str().unwrap()), "{wr}");
    // Another session start finds it: no second server.
    s.session_start(60);
    assert_eq!((s.pong_pid(), s.servers()), (p1, vec![p1]));
    eprintln!("session-start hook that started the server: {hook_ms} ms");

    // A crash; then four session starts race: the start lock lets one start a server.
    kill(p1);
    wait_until("the killed server stops answering", Duration::from_secs(5), || {
        s.ping().is_none()
    });
    let racers: Vec<_> = (0..4).map(|_| s.spawn_session_start(60)).collect();
    for r in racers {
        assert!(r.wait_with_output().unwrap().status.success());
    }
    wait_until("one server answers", Duration::from_secs(5), || s.ping().is_some());
    let p2 = s.pong_pid();
    assert_ne!(p2, p1);
    // A racer that slipped past the lock after the winner released it cannot bind the port
    // and exits: what settles is one server, the one answering.
    wait_until("one warm server process", Duration::from_secs(5), || {
        s.servers() == vec![p2]
    });
    assert!(!s.warm_dir().join("start.lock").exists(), "the lock was released");

    // An upgrade: the config re-rendered by the new build carries its id; the old server
    // refuses its requests (409) but does not exit on them (a hook request cannot stop it);
    // the next session start of the new build retires it (token + a build at least as new)
    // and runs the new build.
    s.upgrade(100);
    let out = s.guard(&["install", "--provider", "claude-code", "--warm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let build_b = s.url_build();
    assert_ne!(build_b, build_a);
    let (status, body) = s.post(&pre_route(&s), PRE).unwrap();
    assert_eq!(status, 409, "{body}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(p2), "a refused hook request does not stop the server");
    s.session_start(60);
    wait_until("the old build exits", Duration::from_secs(5), || !alive(p2));
    let pong = s.ping().expect("restarted");
    assert_eq!(pong["build"], build_b.as_str());
    let p3 = s.pong_pid();
    let (status, _) = s.post(&pre_route(&s), PRE).unwrap();
    assert_eq!(status, 200);

    // Upgraded and re-installed, no request yet: the new build's session start retires the
    // older server itself and starts its own (the session's first hook finds the new build).
    s.upgrade(200);
    let out = s.guard(&["install", "--provider", "claude-code", "--warm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let build_c = s.url_build();
    s.session_start(60);
    let pong = s.ping().expect("the newer build answers");
    assert_eq!(pong["build"], build_c.as_str());
    assert!(!alive(p3), "the older server was retired");
    let p4 = s.pong_pid();
    assert_eq!(s.servers(), vec![p4]);
    let (status, _) = s.post(&pre_route(&s), PRE).unwrap();
    assert_eq!(status, 200);

    // Upgraded, not re-installed: the config still names build C, whose server answers it;
    // the newer binary's session start leaves that server running.
    s.upgrade(300);
    s.session_start(60);
    assert_eq!(s.pong_pid(), p4);
    let (status, _) = s.post(&pre_route(&s), PRE).unwrap();
    assert_eq!(status, 200);

    // Copilot CLI: command hooks in warm mode unless the user opted in to loopback http hooks.
    let copilot_pre = |args: &[&str]| -> Value {
        let out = s.guard(args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let dir = s.dir.join("home/.copilot/hooks");
        let file = std::fs::read_dir(&dir).unwrap().flatten().next().unwrap().path();
        let v: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
        v["hooks"]["preToolUse"][0].clone()
    };
    let plain = copilot_pre(&["install", "--provider", "copilot", "--scope", "user", "--warm"]);
    assert_eq!(plain["type"], "command", "{plain}");
    let http = copilot_pre(&[
        "install",
        "--provider",
        "copilot",
        "--scope",
        "user",
        "--warm",
        "--copilot-allow-localhost",
    ]);
    assert_eq!(http["type"], "http", "{http}");
    assert!(http["url"]
        .as_str()
        .unwrap()
        .contains(&format!("127.0.0.1:{}/v1/hook/copilot/preToolUse?", s.port())));
    // That install rendered the binary's current build (upgraded above, not re-installed
    // then): the running server of the older build refuses it; the next session start
    // retires it and serves the Copilot route.
    let copilot_route = http["url"]
        .as_str()
        .unwrap()
        .split_once(&format!(":{}", s.port()))
        .unwrap()
        .1
        .to_owned();
    let copilot_pre_tool_use = r#"{"sessionId":"s-warm","timestamp":1,"cwd":"/tmp","toolName":"bash","toolArgs":{"command":"ls","description":"list"}}"#;
    let (status, _) = s.post(&copilot_route, copilot_pre_tool_use).unwrap();
    assert_eq!(status, 409);
    s.session_start(60);
    wait_until("the older server exits", Duration::from_secs(5), || !alive(p4));
    let (status, body) = s.post(&copilot_route, copilot_pre_tool_use).unwrap();
    assert_eq!(status, 200, "{body}");
    let p5 = s.pong_pid();

    // Lifetime: a server started with a 1 s grace outlives idle gaps longer than that while
    // the session that started it is open, and exits 1 s after the session's end (its
    // SessionEnd hook), removing its record.
    kill(p5);
    wait_until("the killed server stops answering", Duration::from_secs(5), || {
        s.ping().is_none()
    });
    s.session_start(1);
    let p6 = s.record().and_then(|r| r["pid"].as_u64()).expect("started");
    let p6 = u32::try_from(p6).unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    assert!(alive(p6), "the server exited while its session was open");
    let end = r#"{"session_id":"s-warm","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"SessionEnd","reason":"exit"}"#;
    let (status, body) = s.post("/v1/hook/claude-code/SessionEnd", end).unwrap();
    assert_eq!(status, 200, "{body}");
    let clock = Instant::now();
    wait_until("the idle server exits", Duration::from_secs(10), || !alive(p6));
    assert!(
        clock.elapsed() >= Duration::from_millis(500),
        "it ran until idle: {:?}",
        clock.elapsed()
    );
    assert!(s.record().is_none(), "the idle server removed its record");
    let out = s.guard(&["doctor", "--warm", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(report["warm"]["running"], false, "{report}");
}

/// Two hook binaries (say a secret guard and an audit hook) installed warm for the same user:
/// each has its own warm directory, token, port and server, neither retires the other, and each
/// server refuses the other's token. Uninstall removes a binary's warm directory, stopping its
/// server, once none of its installed hooks uses warm mode; the other binary's stays.
#[test]
fn two_hook_binaries_keep_their_own_warm_servers() {
    let a = Scratch::named("warm-two");
    let b = a.sibling("audit");
    for s in [&a, &b] {
        let out = s.guard(&["install", "--provider", "claude-code", "--warm"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(s.handler("PreToolUse")["type"], "http");
    }
    assert_ne!(a.warm_dir(), b.warm_dir());
    assert_eq!(a.warm_dir().parent(), Some(a.warm_base().as_path()));
    let name = |s: &Scratch| s.warm_dir().file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name(&a).starts_with("guard-") && name(&b).starts_with("audit-"),
        "{} {}",
        name(&a),
        name(&b)
    );
    assert_ne!(a.token(), b.token(), "two tokens");
    assert_ne!(a.port(), b.port(), "two ports");
    assert!(pre_route(&a).contains("/v1/hook/claude-code/PreToolUse"));

    // Session starts in turn, twice over: two servers, neither retired by the other's hook.
    a.session_start(60);
    b.session_start(60);
    let (pa, pb) = (a.pong_pid(), b.pong_pid());
    assert_ne!(pa, pb);
    a.session_start(60);
    b.session_start(60);
    assert_eq!((a.pong_pid(), b.pong_pid()), (pa, pb), "neither retired the other");
    assert_eq!((a.servers(), b.servers()), (vec![pa], vec![pb]));
    for s in [&a, &b] {
        let (status, body) = s.post(&pre_route(s), PRE).unwrap();
        assert_eq!(status, 200, "{body}");
    }
    // Each server answers its own token only.
    let (status, _) = post_with(a.port(), &b.token(), &pre_route(&a), PRE).unwrap();
    assert_eq!(status, 401, "a's server refuses b's token");
    let (status, _) = post_with(b.port(), &a.token(), &pre_route(&b), PRE).unwrap();
    assert_eq!(status, 401, "b's server refuses a's token");

    // A also installed at user scope: uninstalling the project's hooks leaves its warm
    // directory and server (the user-scope hooks still use them); uninstalling the last stops
    // the server and removes the directory. B is untouched.
    let out = a.guard(&["install", "--provider", "claude-code", "--scope", "user", "--warm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = a.guard(&["uninstall", "--provider", "claude-code"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        !a.repo.join(".claude/settings.local.json").exists(),
        "the project's http hooks were removed (the file was only ours)"
    );
    assert!(a.warm_dir().join("token").exists(), "the user-scope hooks still use it");
    assert_eq!(a.pong_pid(), pa);
    let out = a.guard(&["uninstall", "--provider", "claude-code", "--scope", "user"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    wait_until("a's server stops", Duration::from_secs(5), || !alive(pa));
    assert!(!a.warm_dir().exists(), "a's warm directory was removed");
    assert_eq!(b.pong_pid(), pb, "b's server runs on");
    let (status, _) = b.post(&pre_route(&b), PRE).unwrap();
    assert_eq!(status, 200);
    // Re-installed without warm mode: that install forgets B's warm hooks, and B's directory goes.
    let out = b.guard(&["install", "--provider", "claude-code"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(b.handler("PreToolUse")["type"], "command");
    wait_until("b's server stops", Duration::from_secs(5), || !alive(pb));
    assert!(!b.warm_dir().exists(), "b's warm directory was removed");
    // Uninstalling a warm manifest that was never installed leaves no warm directory behind.
    let c = a.sibling("never");
    let out = c.guard(&["uninstall", "--provider", "claude-code", "--warm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!c.warm_dir().exists(), "{}", c.warm_dir().display());
}

/// POSTs `body` to `127.0.0.1:port` with `token`; the status and body.
fn post_with(port: u16, token: &str, path_and_query: &str, body: &str) -> Option<(u16, String)> {
    use std::io::Read;
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let req = format!(
        "POST {path_and_query} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    let status = out.split(' ').nth(1)?.parse().ok()?;
    let body = out
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    Some((status, body))
}

impl Scratch {
    /// Runs the rendered prompt command hook (`--warm`, or `--warm-only` when the manifest has
    /// no prompt hook) with a `UserPromptSubmit` payload: its output and how long it took.
    fn prompt_keeper(&self) -> (Output, Duration) {
        let groups = self.settings()["hooks"]["UserPromptSubmit"].clone();
        let command = groups
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|g| g["hooks"][0]["command"].as_str())
            .find(|c| c.ends_with(" --warm-only") || c.ends_with(" --warm"))
            .expect("the prompt command hook with --warm or --warm-only")
            .to_owned();
        let clock = Instant::now();
        let child = self.spawn_hook(&command, 60, "UserPromptSubmit", ("prompt", "go on"));
        let out = child.wait_with_output().unwrap();
        (out, clock.elapsed())
    }
}

/// A listener on `port` that is not ours: it records what it receives and answers each
/// connection with `answer`, `piece` bytes every `gap`. Stops (and frees the port) when the
/// flag is set.
fn impostor(
    port: u16,
    answer: Vec<u8>,
    piece: usize,
    gap: Duration,
) -> (
    std::sync::Arc<std::sync::atomic::AtomicBool>,
    std::sync::mpsc::Receiver<Vec<u8>>,
) {
    use std::io::Read;
    use std::sync::atomic::{AtomicBool, Ordering};
    let l = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the warm port is free");
    l.set_nonblocking(true).unwrap();
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let (tx, rx) = std::sync::mpsc::channel();
    let flag = std::sync::Arc::clone(&stop);
    std::thread::spawn(move || {
        while !flag.load(Ordering::SeqCst) {
            let Ok((mut s, _)) = l.accept() else {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            let (tx, answer) = (tx.clone(), answer.clone());
            std::thread::spawn(move || {
                let _ = s.set_nonblocking(false);
                let _ = s.set_read_timeout(Some(Duration::from_millis(300)));
                let mut got = Vec::new();
                let mut buf = [0u8; 4096];
                while let Ok(n) = s.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    got.extend_from_slice(&buf[..n]);
                    if got.windows(4).any(|w| w == b"\r\n\r\n") {
                        break;
                    }
                }
                for chunk in answer.chunks(piece.max(1)) {
                    if s.write_all(chunk).is_err() {
                        break;
                    }
                    std::thread::sleep(gap);
                }
                let _ = s.set_read_timeout(Some(Duration::from_millis(500)));
                let mut rest = Vec::new();
                let _ = s.read_to_end(&mut rest);
                got.extend_from_slice(&rest);
                let _ = tx.send(got);
            });
        }
    });
    (stop, rx)
}

#[test]
fn a_server_gone_mid_session_is_restarted_by_the_next_prompt() {
    let s = Scratch::named("warm-restart");
    let out = s.guard(&["install", "--provider", "claude-code", "--warm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    s.session_start(60);
    let p1 = s.pong_pid();
    // The server is killed between two turns: the next prompt's hook starts a new one before
    // the turn's tool hooks run.
    kill(p1);
    wait_until("the killed server stops answering", Duration::from_secs(5), || {
        s.ping().is_none()
    });
    let (out, restart) = s.prompt_keeper();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let answer = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(answer.is_empty() || answer == "{}", "no opinion: {answer}");
    let p2 = s.pong_pid();
    assert_ne!(p2, p1);
    let (status, body) = s.post(&pre_route(&s), PRE).unwrap();
    assert_eq!(status, 200, "{body}");
    // Its cost on every turn while the server is up.
    let mut runs: Vec<Duration> = (0..15).map(|_| s.prompt_keeper().1).collect();
    runs.sort();
    assert_eq!(s.pong_pid(), p2, "an answering server is left alone");
    // The same binary as a plain command hook (no warm check), for scale.
    let mut plain: Vec<Duration> = (0..15)
        .map(|_| {
            let mut c = Command::new(&s.bin);
            c.args(["agenthooks", "run", "--provider=claude-code", "--event=UserPromptSubmit"]);
            s.env(&mut c, 60);
            let clock = Instant::now();
            let mut child = c.stdin(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
            let payload = r#"{"session_id":"s-warm","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"go on"}"#;
            child.stdin.take().unwrap().write_all(payload.as_bytes()).unwrap();
            child.wait().unwrap();
            clock.elapsed()
        })
        .collect();
    plain.sort();
    eprintln!(
        "prompt command hook (--warm): restart {} ms; server up: median {} µs, max {} µs (the same binary as a plain command hook: median {} µs)",
        restart.as_millis(),
        runs[runs.len() / 2].as_micros(),
        runs[runs.len() - 1].as_micros(),
        plain[plain.len() / 2].as_micros()
    );
}

#[test]
fn an_impostor_on_the_port_gets_no_token_and_the_user_is_told() {
    let s = Scratch::named("warm-impostor");
    let out = s.guard(&["install", "--provider", "claude-code", "--warm"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let token = s.token();
    let bearer = agenthooks::runtime::warm_state::bearer(&token);
    // Another local user's listener on the warm port while no server of ours runs: it answers
    // the ping with a pong naming the config's build, but cannot answer the challenge.
    let body = format!(
        r#"{{"agenthooks":"pong","version":"0.1.0","build":"{}","pid":4242,"port":{},"proof":"{}"}}"#,
        s.url_build(),
        s.port(),
        "0".repeat(64)
    );
    let pong = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let pong_answer = pong.into_bytes();
    let (stop, seen) = impostor(s.port(), pong_answer.clone(), usize::MAX, Duration::ZERO);
    let out = s.session_start(60);
    let answer: Value = serde_json::from_slice(&out.stdout).expect("the hook's answer is JSON");
    let message = answer["systemMessage"].as_str().unwrap_or_default();
    assert!(
        message.contains("is not this hook's warm server") && message.contains("uid"),
        "the user is told: {answer}"
    );
    assert!(s.record().is_none(), "no server of ours was started");
    let out = s.guard(&["doctor", "--warm", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let imp = &report["warm"]["impostor"];
    assert!(imp["uid"].is_u64(), "doctor names the listener's uid: {report}");
    let errors: Vec<&Value> = report["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| {
            f["severity"] == "error"
                && f["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("not this hook's warm server"))
        })
        .collect();
    assert_eq!(errors.len(), 1, "{report}");
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(50));
    let got: Vec<u8> = seen.try_iter().flatten().collect();
    let got = String::from_utf8_lossy(&got);
    assert!(got.contains("POST /v1/ping"), "{got}");
    assert!(
        !got.contains(&token) && !got.contains(&bearer),
        "a credential reached the impostor: {got}"
    );

    // The turn's prompt hook answers as a failure per the router's policy: the guard's is
    // fail-open, which lets the prompt through (as for a stopped server), with the message (a
    // fail-closed policy's failure answer blocks the turn, so none of its tool hooks reaches
    // the impostor).
    let (stop, _seen) = impostor(s.port(), pong_answer.clone(), usize::MAX, Duration::ZERO);
    let (out, _) = s.prompt_keeper();
    let open: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert!(out.status.success() && open.get("decision").is_none(), "{open}");
    assert!(
        open["systemMessage"]
            .as_str()
            .is_some_and(|m| m.contains("not this hook's warm server")),
        "{open}"
    );
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(50));

    // A listener that drips its answer, and one that sends an endless head: the prompt hook
    // (--warm, the guard's own; its check is capped at 3 s, within any hook timeout) is not held
    // past 5 s.
    let endless = {
        let mut h = b"HTTP/1.1 200 OK\r\nX-A: ".to_vec();
        h.extend(std::iter::repeat_n(b'a', 64 << 20));
        h
    };
    for (answer, piece, gap) in [
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".to_vec(),
            1,
            Duration::from_millis(200),
        ),
        (endless, 1 << 20, Duration::ZERO),
    ] {
        let (stop, _seen) = impostor(s.port(), answer, piece, gap);
        let (out, took) = s.prompt_keeper();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(took < Duration::from_secs(5), "held {took:?}");
        // A hook run with --timeout=2 answers within it.
        let mut c = Command::new(&s.bin);
        c.args([
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--event=UserPromptSubmit",
            "--timeout=2",
            "--warm-only",
        ]);
        s.env(&mut c, 60);
        let clock = Instant::now();
        let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let payload = r#"{"session_id":"s-warm","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"go on"}"#;
        child.stdin.take().unwrap().write_all(payload.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let took = clock.elapsed();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        assert!(out.status.success());
        assert!(took < Duration::from_secs(2), "held {took:?} past --timeout=2");
        std::thread::sleep(Duration::from_millis(50));
    }
}
