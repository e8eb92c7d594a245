//! The serve loop end to end with the OpenCode codec: frames in, reply frames out, HTTP effects
//! to a local stand-in for OpenCode's server; and the per-connection facts (MCP servers, child
//! sessions, our own continuation).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agenthooks_core::decision::{allow, continue_with, deny, rewrite_input};
use agenthooks_core::{
    CanonicalTool, Codec, Context, Event, EventKind, HandlerError, Invocation, PermissionEvent, Policy, Router,
    StopEvent, ToolPreEvent, Transport,
};
use agenthooks_opencode::CODEC;
use agenthooks_runtime::{serve_frames, RunOptions, Runner};
use serde_json::{json, Value};

/// A stand-in for OpenCode's HTTP server: records `"<request line> <body>"` per request.
fn server() -> (String, Arc<Mutex<Vec<String>>>) {
    server_answering(&[])
}

/// [`server`] answering the first requests with `statuses` (then `200 OK`).
fn server_answering(statuses: &'static [&'static str]) -> (String, Arc<Mutex<Vec<String>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://127.0.0.1:{}/", l.local_addr().unwrap().port());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = Arc::clone(&seen);
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { break };
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut first = String::new();
            r.read_line(&mut first).unwrap();
            let mut len = 0;
            loop {
                let mut line = String::new();
                r.read_line(&mut line).unwrap();
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap();
                }
                if line == "\r\n" || line.is_empty() {
                    break;
                }
            }
            let mut body = vec![0; len];
            r.read_exact(&mut body).unwrap();
            seen2
                .lock()
                .unwrap()
                .push(format!("{} {}", first.trim(), String::from_utf8(body).unwrap()));
            let status = statuses.get(seen2.lock().unwrap().len() - 1).unwrap_or(&"200 OK");
            let _ = s.write_all(format!("HTTP/1.1 {status}\r\nContent-Length: 4\r\n\r\ntrue").as_bytes());
        }
    });
    (url, seen)
}

fn run(router: Router, frames: &[Value], tag: &str) -> Vec<Value> {
    let dir = std::env::temp_dir().join(format!("agenthooks-opencode-frames-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let runner = Runner::new(router, vec![&CODEC]).with_options(RunOptions::default().with_state_dir(&dir));
    let input = frames.iter().map(|f| f.to_string() + "\n").collect::<String>();
    let env: Vec<(String, String)> = Vec::new();
    serve_frames(&runner, &CODEC, input.as_bytes(), &env)
}

fn by_seq(frames: &[Value], seq: i64) -> Value {
    frames.iter().find(|f| f["seq"] == seq).cloned().unwrap_or(Value::Null)
}

fn hello(url: &str) -> Value {
    json!({"seq": 0, "hook": "agenthooks.hello", "input": {"serverUrl": url, "directory": "/w", "worktree": "/w", "projectID": "p"}})
}

fn before(seq: i64, sid: &str, tool: &str, command: &str) -> Value {
    json!({"seq": seq, "hook": "tool.execute.before", "timeout_ms": 5000,
        "input": {"tool": tool, "sessionID": sid, "callID": format!("call_{seq}")},
        "output": {"args": {"command": command}}})
}

fn idle(seq: i64, sid: &str) -> Value {
    json!({"seq": seq, "hook": "event", "input": {"event": {"type": "session.idle", "properties": {"sessionID": sid}}}})
}

#[test]
fn gates_answer_with_a_throw_or_mutated_args() {
    let router = Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| match e.tool.command() {
        Some("rm -rf /") => deny("no"),
        Some(_) => {
            let mut input = e.tool.input().clone();
            input.insert("command".into(), "echo safe".into());
            rewrite_input(input).allow()
        }
        None => agenthooks_core::decision::no_decision(),
    });
    let (url, _) = server();
    let out = run(
        router,
        &[
            hello(&url),
            before(1, "s", "bash", "rm -rf /"),
            before(2, "s", "bash", "ls"),
        ],
        "gates",
    );
    assert_eq!(by_seq(&out, 0)["output"]["agenthooks"], "ready");
    assert_eq!(by_seq(&out, 1), json!({"seq": 1, "error": "no"}));
    // The allow degrades (OpenCode has none at this hook); the rewrite stays.
    assert_eq!(
        by_seq(&out, 2),
        json!({"seq": 2, "output": {"args": {"command": "echo safe"}}})
    );
}

#[test]
fn a_permission_is_answered_over_http_with_the_reply_route() {
    let router = Router::new().on_permission(|_: &Context, e: &PermissionEvent| {
        assert_eq!((e.tool.name.as_str(), e.tool.command()), ("bash", Some("git push")));
        allow()
    });
    let (url, seen) = server();
    let asked = json!({"seq": 5, "hook": "event", "input": {"event": {"type": "permission.asked", "properties": {
        "id": "per_1", "sessionID": "ses_1", "permission": "bash", "patterns": ["git push"],
        "metadata": {"command": "git push"}, "always": ["git push *"], "tool": {"messageID": "m", "callID": "c"}}}}});
    let out = run(router, &[hello(&url), asked], "permission");
    assert_eq!(by_seq(&out, 5), json!({"seq": 5}), "effects never reach the shim");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [r#"POST /permission/per_1/reply?directory=%2Fw HTTP/1.1 {"reply":"once"}"#]
    );
}

#[test]
fn a_permission_reply_falls_back_to_the_per_session_route_on_404() {
    // An older server without `/permission/{id}/reply`: the daemon retries on the legacy route.
    let router = Router::new().on_permission(|_: &Context, _: &PermissionEvent| allow());
    let (url, seen) = server_answering(&["404 Not Found"]);
    let asked = json!({"seq": 5, "hook": "event", "input": {"event": {"type": "permission.asked", "properties": {
        "id": "per 1", "sessionID": "ses_1", "permission": "bash", "patterns": ["ls"],
        "metadata": {"command": "ls"}, "always": [], "tool": {"messageID": "m", "callID": "c"}}}}});
    let hello = json!({"seq": 0, "hook": "agenthooks.hello", "input": {"serverUrl": url, "directory": "/w x"}});
    run(router, &[hello, asked], "permission-fallback");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            r#"POST /permission/per%201/reply?directory=%2Fw%20x HTTP/1.1 {"reply":"once"}"#,
            r#"POST /session/ses_1/permissions/per%201?directory=%2Fw%20x HTTP/1.1 {"response":"once"}"#
        ]
    );
}

#[test]
fn continue_with_is_a_marked_follow_up_prompt_and_the_cap_holds() {
    let router = Router::new()
        .with_policy(Policy::default().with_continuation_cap(1))
        .on_stop(|_: &Context, _: &StopEvent| continue_with("one more"));
    let (url, seen) = server();
    let ours = json!({"seq": 2, "hook": "chat.message", "input": {"sessionID": "s"},
        "output": {"message": {"id": "msg_2"}, "parts": [{"type": "text", "text": "one more", "synthetic": true, "metadata": {"agenthooks": "continue"}}]}});
    let user = json!({"seq": 4, "hook": "chat.message", "input": {"sessionID": "s"},
        "output": {"message": {"id": "msg_3"}, "parts": [{"type": "text", "text": "next question"}]}});
    let out = run(
        router,
        &[hello(&url), idle(1, "s"), ours, idle(3, "s"), user, idle(5, "s")],
        "continue",
    );
    assert_eq!(out.len(), 6, "{out:?}");
    let seen = seen.lock().unwrap().clone();
    // idle 1 continues; idle 3 follows our own continuation: capped; idle 5 follows a user
    // prompt: the counter was reset, it continues again.
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(
        seen[0].starts_with("POST /session/s/prompt_async?directory=%2Fw HTTP/1.1 "),
        "{seen:?}"
    );
    let body: Value = serde_json::from_str(seen[0].split_once(" HTTP/1.1 ").unwrap().1).unwrap();
    assert_eq!(body["parts"][0]["text"], "one more");
    assert_eq!(body["parts"][0]["metadata"]["agenthooks"], "continue");
}

#[test]
fn connection_facts_mcp_servers_and_child_sessions() {
    let seen: Arc<Mutex<Vec<(u64, EventKind, Value)>>> = Arc::default();
    let seen2 = Arc::clone(&seen);
    let router = Router::new().on_any(move |_: &Context, e: &Event| {
        let extra = match e {
            Event::ToolPre(p) => {
                json!({"class": p.tool.canonical, "mcp": p.tool.mcp.as_ref().map(|m| (&m.server, &m.tool))})
            }
            _ => json!(e.envelope().agent.as_ref().map(|a| &a.id)),
        };
        let seq = serde_json::from_slice::<Value>(e.envelope().raw().as_bytes()).unwrap()["seq"]
            .as_u64()
            .unwrap();
        seen2.lock().unwrap().push((seq, e.kind(), extra));
        Ok::<(), HandlerError>(())
    });
    let created = json!({"seq": 3, "hook": "event", "input": {"event": {"type": "session.created", "properties": {
        "sessionID": "child", "info": {"id": "child", "parentID": "s", "directory": "/w"}}}}});
    let frames = [
        json!({"seq": 1, "hook": "config", "input": {"mcp": {"my.docs": {"type": "remote"}}}}),
        before(2, "s", "my_docs_search", "x"),
        created,
        idle(4, "child"),
        idle(5, "s"),
    ];
    let out = run(router, &frames, "facts");
    assert_eq!(out.len(), 5);
    // Sessions run concurrently (the config frame has none): order by seq.
    let mut seen = seen.lock().unwrap().clone();
    seen.sort_by_key(|(seq, _, _)| *seq);
    let kinds: Vec<EventKind> = seen.iter().map(|(_, k, _)| *k).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Other,
            EventKind::ToolPre,
            EventKind::SubagentStart,
            EventKind::SubagentStop,
            EventKind::Stop
        ]
    );
    assert_eq!(
        seen[1].2,
        json!({"class": CanonicalTool::Mcp, "mcp": ["my.docs", "search"]})
    );
    assert_eq!(seen[3].2, json!("child"));
}

#[test]
fn older_and_v1_shapes_still_reach_handlers_as_their_kind() {
    let env: Vec<(String, String)> = Vec::new();
    let decode = |frame: Value| {
        let inv = Invocation::new(frame.to_string().into_bytes(), &env).with_transport(Transport::Frame);
        CODEC.decode(&inv).unwrap()
    };
    // 1.18.33 under `opencode run` sends chat.message with only the session id.
    let e = decode(json!({"seq": 1, "hook": "chat.message", "input": {"sessionID": "s"},
        "output": {"parts": [{"type": "text", "text": "hi"}]}}));
    let Event::PromptSubmitted(p) = &e else { panic!("{e:?}") };
    assert_eq!((p.prompt.as_str(), p.envelope.session.id.as_str()), ("hi", "s"));
    // A v1 `permission.updated` with a string `pattern` (older servers).
    let e = decode(
        json!({"seq": 2, "hook": "event", "input": {"event": {"type": "permission.updated", "properties": {
        "id": "per_9", "type": "bash", "pattern": "rm *", "sessionID": "s", "messageID": "m", "callID": "c",
        "title": "rm", "metadata": {"command": "rm -rf x"}, "time": {"created": 1}}}}}),
    );
    assert_eq!(e.kind(), EventKind::Permission);
    let wire = CODEC.encode(&e, &deny("no").into()).unwrap();
    let reply: Value = serde_json::from_slice(&wire.stdout).unwrap();
    assert_eq!(reply["effects"][0]["http"]["path"], "/session/s/permissions/per_9");
    assert_eq!(reply["effects"][0]["http"]["body"], json!({"response": "reject"}));
    // A retyped field (`timeout_ms` as a string, `args` as a JSON string) does not fail the frame.
    let e = decode(json!({"seq": "3", "hook": "tool.execute.before", "timeout_ms": "5000",
        "input": {"tool": "bash", "sessionID": "s", "callID": "c"}, "output": {"args": "{\"command\":\"ls\"}"}}));
    let Event::ToolPre(p) = &e else { panic!("{e:?}") };
    assert_eq!(p.tool.command(), Some("ls"));
    // An errored tool part is a tool error.
    let e = decode(
        json!({"seq": 4, "hook": "event", "input": {"event": {"type": "message.part.updated", "properties": {
        "part": {"type": "tool", "tool": "bash", "callID": "c", "sessionID": "s",
            "state": {"status": "error", "input": {"command": "ls"}, "error": "denied"}}}}}}),
    );
    let Event::ToolError(t) = &e else { panic!("{e:?}") };
    assert_eq!((t.error.as_str(), t.tool.id.as_str()), ("denied", "c"));
}

#[test]
fn a_slow_handler_is_answered_per_policy_within_the_frames_deadline() {
    let router =
        Router::new()
            .with_policy(Policy::default().fail_closed())
            .on_tool_pre(|_: &Context, _: &ToolPreEvent| {
                std::thread::sleep(Duration::from_secs(3));
                deny("late")
            });
    let mut frame = before(1, "s", "bash", "ls");
    frame["timeout_ms"] = json!(400);
    let started = std::time::Instant::now();
    let out = run(router, &[frame], "deadline");
    let err = by_seq(&out, 1)["error"].as_str().unwrap_or_default().to_owned();
    assert!(err.contains("deadline"), "{out:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

/// Frames the shim writes for payloads `serde_json` refuses (`JSON.stringify` keeps lone
/// surrogates as `\ud800` escapes; nesting has no limit), and damaged frames: each is answered
/// under its own `seq`, by the handler or by the failure policy for its hook, never with
/// `"seq": null` (the shim would wait out its deadline).
#[test]
fn unreadable_frames_are_answered_under_their_seq() {
    let deep = format!("{}{}", "[".repeat(3000), "]".repeat(3000));
    let frames = [
        r#"{"seq":1,"hook":"tool.execute.before","timeout_ms":5000,"input":{"tool":"bash","sessionID":"s","callID":"c1"},"output":{"args":{"command":"rm -rf /","description":"\ud800"}}}"#.to_owned(),
        format!(r#"{{"seq":2,"hook":"tool.execute.before","timeout_ms":5000,"input":{{"tool":"bash","sessionID":"s","callID":"c2"}},"output":{{"args":{{"command":"rm -rf /","deep":{deep}}}}}}}"#),
        r#"{"seq":3,"hook":"tool.execute.before","timeout_ms":5000,"input":{"tool":"bash","sessionID":"s","#.to_owned(),
        before(4, "s", "bash", "rm -rf /").to_string(),
    ];
    let input = frames.iter().map(|f| f.clone() + "\n").collect::<String>();
    let deny_rm = || {
        Router::new().on_tool_pre(|_: &Context, e: &ToolPreEvent| match e.tool.command() {
            Some(c) if c.starts_with("rm") => deny("no rm"),
            _ => agenthooks_core::decision::no_decision(),
        })
    };
    let env: Vec<(String, String)> = Vec::new();
    // Fail-closed: every one of them blocks (denied by the handler, or failed closed).
    let runner = Runner::new(deny_rm().with_policy(Policy::default().fail_closed()), vec![&CODEC]);
    let out = serve_frames(&runner, &CODEC, input.as_bytes(), &env);
    assert_eq!(out.len(), 4, "{out:?}");
    for seq in 1..=4 {
        let r = by_seq(&out, seq);
        assert!(r["error"].is_string(), "seq {seq} blocks: {out:?}");
    }
    assert!(out.iter().all(|f| f["seq"].is_i64()), "{out:?}");
    // Fail-open: the truncated frame passes at once; the valid one is still denied.
    let runner = Runner::new(deny_rm(), vec![&CODEC]);
    let out = serve_frames(&runner, &CODEC, input.as_bytes(), &env);
    assert_eq!(by_seq(&out, 3), json!({"seq": 3, "output": {}}), "{out:?}");
    assert_eq!(by_seq(&out, 4), json!({"seq": 4, "error": "no rm"}), "{out:?}");
}

#[test]
fn a_frame_names_itself_whatever_the_hint_and_whatever_it_carries() {
    let env: Vec<(String, String)> = Vec::new();
    let decode = |frame: &[u8], hint: Option<&'static str>| {
        let inv = Invocation::new(frame.to_vec(), &env)
            .with_transport(Transport::Frame)
            .with_native_event(hint);
        CODEC.decode(&inv).unwrap()
    };
    // A bus event frame under another event's hint (the fuzz oracle's finding): the frame's own
    // `input.event.type` names it.
    let e = decode(
        br#"{"seq":25,"hook":"event","input":{"event":{"type":"session.idle","properties":{"sessionID":"s"}}}}"#,
        Some("chat.params"),
    );
    assert_eq!(e.envelope().native.as_str(), "session.idle");
    // A tool call carrying what serde_json refuses (a lone surrogate, a retyped field) is still the
    // tool call its `hook` names, not the hint's event, and a deny reaches the wire.
    for frame in [
        &br#"{"seq":1,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c"},"output":{"args":{"command":"rm -rf / \ud800"}}}"#[..],
        br#"{"seq":1,"hook":"tool.execute.before","input":{"tool":"bash","sessionID":"s","callID":"c"},"output":{"args":{"command":"rm -rf /"}},"extra":{"event":5}}"#,
    ] {
        let e = decode(frame, Some("chat.params"));
        let Event::ToolPre(p) = &e else { panic!("{e:?}") };
        assert!(p.tool.command().unwrap_or_default().starts_with("rm -rf /"), "{:?}", p.tool.command());
        let wire = CODEC.encode(&e, &deny("no").into()).unwrap();
        let reply: Value = serde_json::from_slice(&wire.stdout).unwrap();
        assert_eq!(reply["error"], "no", "{reply}");
    }
}
