//! Warm mode in process: the loopback server answers Claude Code's http hooks with the command
//! path's bytes, concurrently, under the deadline, with keep-alive, and refuses everything it
//! must refuse (one test per refusal).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agenthooks::prelude::*;
use agenthooks::runtime::warm::{Stopped, WarmConfig, WarmServer, HEAD_DEADLINE, HTTP_BODY_CAP};
use agenthooks::runtime::{parse_args, RunOptions, Runner, DEFAULT_STDIN_CAP};
use agenthooks_testkit::fake::{self, Effect, HookOutput, Verdict};

const TOKEN: &str = "t0ken-for-tests";
const BUILD: &str = "build-under-test";

fn pre_tool_use() -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/claude-code/docs/pre_tool_use/input.json");
    std::fs::read(p).unwrap()
}

fn runner(router: Router, tag: &str) -> Runner {
    let dir = std::env::temp_dir().join(format!("agenthooks-warm-it-{}-{tag}", std::process::id()));
    agenthooks::runner(router).with_options(RunOptions::default().with_state_dir(dir))
}

/// A running server on a free port; dropped, it stops and its thread is joined.
struct Running {
    port: u16,
    stop: agenthooks::runtime::warm::StopHandle,
    thread: Option<std::thread::JoinHandle<Stopped>>,
}

impl Running {
    fn start(router: Router, tag: &str, config: WarmConfig) -> Self {
        let server = WarmServer::bind(0, config).unwrap();
        let port = server.port();
        let stop = server.stop_handle();
        let runner = runner(router, tag);
        let thread = std::thread::spawn(move || {
            let env: Vec<(String, String)> = vec![("HOME".into(), "/nonexistent".into())];
            server.serve(&runner, &env)
        });
        Self {
            port,
            stop,
            thread: Some(thread),
        }
    }

    fn with(router: Router, tag: &str) -> Self {
        Self::start(router, tag, WarmConfig::new(TOKEN, BUILD))
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s
    }

    /// One authorized POST of `body` to `path` on a fresh connection.
    fn authed_post(&self, path: &str, body: &[u8]) -> Resp {
        exchange(&mut self.connect(), &authed(self.port, path, body))
    }

    fn join(mut self) -> Stopped {
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            self.stop.stop();
            let _ = t.join();
        }
    }
}

#[derive(Debug)]
struct Resp {
    status: u16,
    head: String,
    body: Vec<u8>,
}

/// Writes `request` and reads one response (by its Content-Length).
fn exchange(s: &mut TcpStream, request: &[u8]) -> Resp {
    s.write_all(request).unwrap();
    read_response(s)
}

fn read_response(s: &mut TcpStream) -> Resp {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        assert_eq!(s.read(&mut byte).unwrap(), 1, "connection closed mid-head: {buf:?}");
        buf.push(byte[0]);
    }
    let head = String::from_utf8(buf).unwrap();
    let status = head[9..12].parse().unwrap();
    let len: usize = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length: ")
                .map(str::to_owned)
        })
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let mut body = vec![0u8; len];
    s.read_exact(&mut body).unwrap();
    Resp { status, head, body }
}

fn post(port: u16, path: &str, body: &[u8], extra: &str) -> Vec<u8> {
    let mut r = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n",
        body.len()
    )
    .into_bytes();
    r.extend_from_slice(body);
    r
}

/// Asserts that the time since `since` lies in `range`.
fn elapsed_within(since: Instant, range: std::ops::Range<Duration>) {
    let took = since.elapsed();
    assert!(range.contains(&took), "{took:?} is not in {range:?}");
}

fn authed(port: u16, path: &str, body: &[u8]) -> Vec<u8> {
    post(port, path, body, &format!("Authorization: Bearer {TOKEN}\r\n"))
}

const PRE: &str = "/v1/hook/claude-code/PreToolUse";

/// An authorized request head (`request_line` without its version), `extra` header lines after
/// the token, then the blank line.
fn authed_head(port: u16, request_line: &str, extra: &str) -> String {
    format!("{request_line} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n{extra}\r\n")
}

fn deny_all(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
    deny("blocked by the warm guard")
}

/// What the command hook prints for the same payload.
fn command_answer(router: Router) -> agenthooks::WireResponse {
    let cmd = parse_args(&["h", "agenthooks", "run", "--provider=claude-code", "--event=PreToolUse"].map(String::from))
        .unwrap()
        .unwrap();
    let env: Vec<(String, String)> = vec![("HOME".into(), "/nonexistent".into())];
    runner(router, "command").respond(&cmd, &pre_tool_use(), &env).unwrap()
}

fn read_as_claude(body: &[u8]) -> Verdict {
    let out = HookOutput::from(&agenthooks::WireResponse::stdout(body.to_vec()));
    fake::interpret("claude-code", "PreToolUse", &pre_tool_use(), &out).unwrap()
}

#[test]
fn a_deny_is_the_command_hooks_bytes_and_claude_reads_a_deny() {
    let srv = Running::with(Router::new().on_tool_pre(deny_all), "deny");
    let r = srv.authed_post(PRE, &pre_tool_use());
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.head.contains("Content-Type: application/json"), "{}", r.head);
    let command = command_answer(Router::new().on_tool_pre(deny_all));
    assert_eq!(r.body, command.stdout, "the same pipeline and encoder");
    let v = read_as_claude(&r.body);
    assert!(matches!(v.effect, Effect::Denied { .. }) && !v.misbehaved(), "{v:?}");
}

#[test]
fn no_decision_is_an_empty_object_claude_reads_as_no_opinion() {
    let srv = Running::with(Router::new(), "none");
    let r = srv.authed_post(PRE, &pre_tool_use());
    assert_eq!(r.status, 200);
    let command = command_answer(Router::new());
    let expected = if command.stdout.is_empty() {
        b"{}".to_vec()
    } else {
        command.stdout
    };
    assert_eq!(r.body, expected);
    let v = read_as_claude(&r.body);
    assert!(v.is_no_op() && !v.misbehaved(), "{v:?}");
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let srv = Running::with(Router::new().on_tool_pre(deny_all), "keepalive");
    let mut s = srv.connect();
    for _ in 0..5 {
        let r = exchange(&mut s, &authed(srv.port, PRE, &pre_tool_use()));
        assert_eq!(r.status, 200);
        assert!(r.head.contains("Connection: keep-alive"), "{}", r.head);
    }
    // Pipelined: two requests in one write, two answers in order.
    let mut two = authed(srv.port, PRE, &pre_tool_use());
    two.extend(authed(srv.port, "/v1/ping", b"{}"));
    s.write_all(&two).unwrap();
    assert_eq!(read_response(&mut s).status, 200);
    let pong: serde_json::Value = serde_json::from_slice(&read_response(&mut s).body).unwrap();
    assert_eq!(
        (pong["agenthooks"].as_str(), pong["build"].as_str()),
        (Some("pong"), Some(BUILD))
    );
    assert_eq!(pong["port"].as_u64(), Some(u64::from(srv.port)));
    // `Connection: close` is honoured.
    let r = exchange(
        &mut s,
        &post(
            srv.port,
            "/v1/ping",
            b"{}",
            &format!("Authorization: Bearer {TOKEN}\r\nConnection: close\r\n"),
        ),
    );
    assert!(r.head.contains("Connection: close"));
    assert_eq!(s.read(&mut [0u8; 1]).unwrap(), 0, "closed after the answer");
}

#[test]
fn requests_run_concurrently() {
    let slow = |_: &Context, _: &ToolPreEvent| {
        std::thread::sleep(Duration::from_millis(400));
        deny("slow")
    };
    let srv = Arc::new(Running::with(Router::new().on_tool_pre(slow), "concurrent"));
    let started = Instant::now();
    let threads: Vec<_> = (0..6)
        .map(|_| {
            let srv = Arc::clone(&srv);
            std::thread::spawn(move || srv.authed_post(PRE, &pre_tool_use()).status)
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), 200);
    }
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(6 * 400 / 2),
        "6 × 400 ms handlers took {took:?}"
    );
}

#[test]
fn the_deadline_answers_per_policy_and_the_connection_goes_on() {
    let stuck = |_: &Context, _: &ToolPreEvent| {
        std::thread::sleep(Duration::from_secs(5));
        allow()
    };
    let router = Router::new()
        .with_policy(Policy::default().fail_closed())
        .on_tool_pre(stuck);
    let srv = Running::with(router, "deadline");
    let mut s = srv.connect();
    let started = Instant::now();
    let r = exchange(&mut s, &authed(srv.port, &format!("{PRE}?timeout=1"), &pre_tool_use()));
    let took = started.elapsed();
    assert_eq!(r.status, 200);
    assert!(
        took < Duration::from_secs(2),
        "answered at the deadline, not after the handler: {took:?}"
    );
    let v = read_as_claude(&r.body);
    assert!(matches!(v.effect, Effect::Denied { .. }), "fail-closed: {v:?}");
    assert_eq!(exchange(&mut s, &authed(srv.port, "/v1/ping", b"{}")).status, 200);
}

#[test]
fn the_body_cap_is_the_stdin_cap_and_its_boundary_holds() {
    assert_eq!(HTTP_BODY_CAP, DEFAULT_STDIN_CAP);
    let cap = 4096;
    let srv = Running::start(Router::new(), "cap", WarmConfig::new(TOKEN, BUILD).with_body_cap(cap));
    // Exactly the cap: read and answered (padding after the JSON object: whitespace).
    let mut at = pre_tool_use();
    at.resize(cap, b' ');
    assert_eq!(srv.authed_post(PRE, &at).status, 200);
    // One byte over: refused from the header, before the body.
    let mut s = srv.connect();
    let head = authed_head(
        srv.port,
        &format!("POST {PRE}"),
        &format!("Content-Length: {}\r\n", cap + 1),
    );
    let r = exchange(&mut s, head.as_bytes());
    assert_eq!(r.status, 413, "{r:?}");
    assert!(r.head.contains("Connection: close"));
}

/// A refusal: the status, no CORS header, and the connection closed.
fn refused(srv: &Running, request: &[u8]) -> Resp {
    let mut s = srv.connect();
    let r = exchange(&mut s, request);
    assert!(!r.head.to_ascii_lowercase().contains("access-control"), "{}", r.head);
    assert!(r.head.contains("Connection: close"), "{}", r.head);
    assert_eq!(s.read(&mut [0u8; 1]).unwrap_or(0), 0, "closed after a refusal");
    r
}

#[test]
fn a_missing_token_is_refused() {
    let srv = Running::with(Router::new().on_tool_pre(deny_all), "notoken");
    assert_eq!(refused(&srv, &post(srv.port, PRE, &pre_tool_use(), "")).status, 401);
}

#[test]
fn a_wrong_token_is_refused() {
    let srv = Running::with(Router::new(), "badtoken");
    for auth in [
        "Authorization: Bearer t0ken-for-test\r\n",
        "Authorization: Bearer t0ken-for-tests-and-more\r\n",
        "X-Agenthooks-Token: nope\r\n",
    ] {
        assert_eq!(
            refused(&srv, &post(srv.port, PRE, &pre_tool_use(), auth)).status,
            401,
            "{auth}"
        );
    }
    // The other accepted header works.
    let ok = post(srv.port, "/v1/ping", b"{}", &format!("X-Agenthooks-Token: {TOKEN}\r\n"));
    assert_eq!(exchange(&mut srv.connect(), &ok).status, 200);
}

#[test]
fn a_non_loopback_host_is_refused() {
    let srv = Running::with(Router::new(), "host");
    for host in [
        "evil.example".to_owned(),
        format!("evil.example:{}", srv.port),
        format!("127.0.0.1:{}", srv.port.wrapping_add(1)),
    ] {
        let req = format!(
            "POST /v1/ping HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: 2\r\n\r\n{{}}"
        );
        assert_eq!(refused(&srv, req.as_bytes()).status, 403, "{host}");
    }
    let no_host = format!("POST /v1/ping HTTP/1.1\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: 2\r\n\r\n{{}}");
    assert_eq!(refused(&srv, no_host.as_bytes()).status, 403);
}

#[test]
fn options_is_refused_without_cors() {
    let srv = Running::with(Router::new(), "options");
    let req = format!(
        "OPTIONS {PRE} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nOrigin: http://evil.example\r\nAccess-Control-Request-Method: POST\r\n\r\n",
        srv.port
    );
    let r = refused(&srv, req.as_bytes());
    assert_eq!(r.status, 405);
    assert!(r.head.contains("Allow: POST"));
}

#[test]
fn get_is_refused() {
    let srv = Running::with(Router::new(), "get");
    let req = authed_head(srv.port, "GET /v1/ping", "");
    assert_eq!(refused(&srv, req.as_bytes()).status, 405);
}

#[test]
fn an_oversize_body_is_refused() {
    let srv = Running::with(Router::new(), "oversize");
    let post = format!("POST {PRE}");
    let req = authed_head(srv.port, &post, &format!("Content-Length: {}\r\n", HTTP_BODY_CAP + 1));
    assert_eq!(refused(&srv, req.as_bytes()).status, 413);
    // A declared length near the address space is refused the same way (nothing allocated).
    let huge = authed_head(srv.port, &post, &format!("Content-Length: {}\r\n", usize::MAX));
    assert_eq!(refused(&srv, huge.as_bytes()).status, 413);
    // And a chunked body (no length to check) is refused.
    let chunked = authed_head(srv.port, &post, "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n";
    assert_eq!(refused(&srv, chunked.as_bytes()).status, 411);
}

#[test]
fn an_unknown_route_is_refused() {
    let srv = Running::with(Router::new(), "route");
    for path in ["/", "/v1/hook/claude-code", "/v1/hook/nope/PreToolUse", "/v2/ping"] {
        assert_eq!(refused(&srv, &authed(srv.port, path, b"{}")).status, 404, "{path}");
    }
}

#[test]
fn a_config_of_another_build_is_refused_but_cannot_stop_the_server() {
    let srv = Running::with(Router::new().on_tool_pre(deny_all), "build");
    let ok = srv.authed_post(&format!("{PRE}?build={BUILD}"), &pre_tool_use());
    assert_eq!(ok.status, 200);
    let r = refused(&srv, &authed(srv.port, &format!("{PRE}?build=older"), &pre_tool_use()));
    assert_eq!(r.status, 409);
    // Still serving: only `/v1/retire` with the token and a build at least as new stops it.
    let ok = srv.authed_post(&format!("{PRE}?build={BUILD}"), &pre_tool_use());
    assert_eq!(ok.status, 200);
    let bearer = agenthooks::runtime::warm_state::bearer(TOKEN);
    let retire = |auth: &str, build: &str| {
        let body = format!(r#"{{"build":"{build}"}}"#);
        exchange(
            &mut srv.connect(),
            &post(
                srv.port,
                "/v1/retire",
                body.as_bytes(),
                &format!("Authorization: Bearer {auth}\r\n"),
            ),
        )
        .status
    };
    assert_eq!(retire(&bearer, BUILD), 401, "the hooks' bearer cannot retire it");
    assert_eq!(retire(TOKEN, "0.0.1-1-1"), 409, "an unknown or older build cannot");
    assert_eq!(retire(TOKEN, BUILD), 200);
    assert_eq!(srv.join(), Stopped::Retired);
}

#[test]
fn the_hooks_bearer_passes_the_hook_routes() {
    let srv = Running::with(Router::new().on_tool_pre(deny_all), "bearer");
    let bearer = agenthooks::runtime::warm_state::bearer(TOKEN);
    let req = post(
        srv.port,
        PRE,
        &pre_tool_use(),
        &format!("Authorization: Bearer {bearer}\r\n"),
    );
    assert_eq!(exchange(&mut srv.connect(), &req).status, 200);
    let session = post(
        srv.port,
        "/v1/session/start",
        br#"{"session":"s"}"#,
        &format!("Authorization: Bearer {bearer}\r\n"),
    );
    assert_eq!(refused(&srv, &session).status, 401, "sessions take the token");
}

#[test]
fn the_ping_needs_no_token_and_answers_the_challenge() {
    use agenthooks::runtime::warm_state::proof;
    let srv = Running::with(Router::new(), "challenge");
    let nonce = "00112233445566778899aabbccddeeff";
    let r = exchange(
        &mut srv.connect(),
        &post(srv.port, "/v1/ping", b"{}", &format!("X-Agenthooks-Nonce: {nonce}\r\n")),
    );
    assert_eq!(r.status, 200);
    let pong: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(pong["build"], BUILD);
    assert_eq!(pong["proof"], proof(TOKEN, nonce, BUILD).as_str());
    assert!(!String::from_utf8_lossy(&r.body).contains(TOKEN));
}

#[test]
fn idle_connections_do_not_keep_an_authenticated_hook_out() {
    let srv = Running::with(Router::new().on_tool_pre(deny_all), "slots");
    // 200 sockets that never send a byte, and 64 that send half a head.
    let mut idle: Vec<TcpStream> = (0..200).map(|_| srv.connect()).collect();
    for _ in 0..64 {
        let mut s = srv.connect();
        s.write_all(b"POST /v1/ping HTTP/1.1\r\nHost: 127.0").unwrap();
        idle.push(s);
    }
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let r = srv.authed_post(PRE, &pre_tool_use());
    let took = started.elapsed();
    assert_eq!(r.status, 200);
    assert!(took < Duration::from_millis(100), "answered in {took:?}");
    // At a limit of 16 the oldest idle socket makes room: the hook is still answered.
    drop(idle);
    let cfg = WarmConfig::new(TOKEN, BUILD).with_max_connections(16);
    let small = Running::start(Router::new().on_tool_pre(deny_all), "slots16", cfg);
    let idle: Vec<TcpStream> = (0..64).map(|_| small.connect()).collect();
    std::thread::sleep(Duration::from_millis(100));
    let r = small.authed_post(PRE, &pre_tool_use());
    assert_eq!(r.status, 200);
    // And a socket silent past the head deadline is closed by the server.
    let mut quiet = small.connect();
    let started = Instant::now();
    assert_eq!(quiet.read(&mut [0u8; 1]).unwrap_or(0), 0);
    assert!(
        started.elapsed() < HEAD_DEADLINE + Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    drop(idle);
}

#[test]
fn a_server_with_an_open_session_outlives_its_idle_exit() {
    let cfg = WarmConfig::new(TOKEN, BUILD)
        .with_idle_exit(Some(Duration::from_millis(400)))
        .with_session_max(Duration::from_secs(60));
    let srv = Running::start(Router::new(), "sessions", cfg);
    let session = |path: &str, id: &str| {
        let body = format!(r#"{{"session":"{id}"}}"#);
        srv.authed_post(path, body.as_bytes()).status
    };
    assert_eq!(session("/v1/session/start", "a"), 200);
    assert_eq!(session("/v1/session/start", "b"), 200);
    std::thread::sleep(Duration::from_millis(1200));
    assert!(!srv.thread.as_ref().unwrap().is_finished(), "exited with sessions open");
    assert_eq!(session("/v1/session/end", "a"), 200);
    // The other ends through its SessionEnd hook (the payload's session id).
    let end =
        br#"{"session_id":"b","hook_event_name":"SessionEnd","cwd":"/tmp","transcript_path":"/tmp/t","reason":"exit"}"#;
    let r = srv.authed_post("/v1/hook/claude-code/SessionEnd", end);
    assert_eq!(r.status, 200);
    let ended = Instant::now();
    assert_eq!(srv.join(), Stopped::Idle);
    elapsed_within(ended, Duration::from_millis(350)..Duration::from_secs(3));
}

#[test]
fn a_session_that_never_ends_counts_for_its_bound_only() {
    let cfg = WarmConfig::new(TOKEN, BUILD)
        .with_idle_exit(Some(Duration::from_millis(200)))
        .with_session_max(Duration::from_millis(800));
    let srv = Running::start(Router::new(), "session-bound", cfg);
    let started = Instant::now();
    let r = srv.authed_post("/v1/session/start", br#"{"session":"z"}"#);
    assert_eq!(r.status, 200);
    assert_eq!(srv.join(), Stopped::Idle);
    elapsed_within(started, Duration::from_millis(750)..Duration::from_secs(4));
}

#[test]
fn an_idle_server_exits() {
    let cfg = WarmConfig::new(TOKEN, BUILD).with_idle_exit(Some(Duration::from_millis(300)));
    let srv = Running::start(Router::new(), "idle", cfg);
    let started = Instant::now();
    assert_eq!(srv.join(), Stopped::Idle);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn only_loopback_addresses_bind() {
    let addr = "0.0.0.0:0".parse().unwrap();
    assert!(WarmServer::bind_addr(addr, WarmConfig::new(TOKEN, BUILD)).is_err());
    assert!(
        WarmServer::bind(0, WarmConfig::new("", BUILD)).is_err(),
        "an empty token"
    );
}

/// The tool filter reaches the pipeline in the call each transport builds: from the route's
/// `tools` query and from `run --tools`. A tool outside it skips the handlers (no opinion), a
/// tool inside it gets the deny; a spec that does not parse filters nothing.
#[test]
fn the_tool_filter_travels_in_the_call_by_route_and_by_argv() {
    let srv = Running::with(Router::new().on_tool_pre(deny_all), "tools");
    let via_route = |spec: &str| {
        let path = format!("{PRE}?tools={}", spec.replace(':', "%3A"));
        let r = srv.authed_post(&path, &pre_tool_use());
        assert_eq!(r.status, 200, "{r:?}");
        read_as_claude(&r.body).effect
    };
    let via_argv = |spec: &str| {
        let argv = [
            "h",
            "agenthooks",
            "run",
            "--provider=claude-code",
            "--event=PreToolUse",
            &format!("--tools={spec}"),
        ]
        .map(String::from);
        let cmd = parse_args(&argv).unwrap().unwrap();
        let env: Vec<(String, String)> = vec![("HOME".into(), "/nonexistent".into())];
        let r = runner(Router::new().on_tool_pre(deny_all), "tools-argv")
            .respond(&cmd, &pre_tool_use(), &env)
            .unwrap();
        read_as_claude(&r.stdout).effect
    };
    for answer in [&via_route as &dyn Fn(&str) -> Effect, &via_argv] {
        assert!(
            !matches!(answer("class:other"), Effect::Denied { .. }),
            "outside the filter"
        );
        assert!(
            matches!(answer("name:Edit"), Effect::Denied { .. }),
            "inside the filter"
        );
        assert!(
            matches!(answer("class:nope"), Effect::Denied { .. }),
            "a bad spec filters nothing"
        );
    }
}
