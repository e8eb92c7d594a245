//! Over-the-socket tests: a real TCP client against each server.

use std::io::{Read, Write};
use std::net::TcpStream;

use serde_json::{json, Value};

use super::*;

/// Sends raw bytes, returns (status, headers, body).
fn send(addr: SocketAddr, raw: &[u8]) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    s.write_all(raw).expect("write");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("read");
    let split = out.windows(4).position(|w| w == b"\r\n\r\n").expect("head");
    let head = String::from_utf8_lossy(&out[..split]).into_owned();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status");
    (status, head, out[split + 4..].to_vec())
}

fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, String, Vec<u8>) {
    let b = serde_json::to_vec(body).expect("json");
    let mut raw = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        b.len()
    )
    .into_bytes();
    raw.extend_from_slice(&b);
    send(addr, &raw)
}

/// `post`, asserting a 200: the head and the body.
fn post_ok(addr: SocketAddr, path: &str, body: &Value) -> (String, Vec<u8>) {
    let (status, head, body) = post(addr, path, body);
    assert_eq!(status, 200, "POST {path}: {head}");
    (head, body)
}

/// A server of `api` whose script calls `tool` with `input`, then answers "Done.".
fn tool_then_done(api: Api, tool: &str, input: Value) -> FakeModel {
    FakeModel::start(api, Script::tool_then_text(tool, input, "Done.")).expect("start")
}

#[test]
fn anthropic_round_trip_is_recorded() {
    let server = tool_then_done(
        Api::AnthropicMessages,
        "Bash",
        json!({"command": "echo hi > marker.txt"}),
    );
    assert!(server.base_url().starts_with("http://127.0.0.1:"));
    assert!(server.addr().ip().is_loopback());
    let (status, _, _) = send(server.addr(), b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_eq!(status, 200);
    let (head, body) = post_ok(
        server.addr(),
        "/v1/messages?beta=true",
        &json!({"stream": true, "tools": [{"name": "Bash"}], "system": "CTX-\"quoted\"-TOKEN",
                "messages": [{"role": "user", "content": "go"}]}),
    );
    assert!(head.contains("Content-Type: text/event-stream"));
    assert!(String::from_utf8_lossy(&body).contains("\"name\":\"Bash\""));
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!((reqs[0].method.as_str(), reqs[0].served), ("HEAD", Served::Meta(200)));
    assert_eq!(reqs[1].path, "/v1/messages");
    assert_eq!(reqs[1].query.as_deref(), Some("beta=true"));
    assert_eq!(reqs[1].served, Served::Turn(0));
    assert!(
        reqs[1].contains("CTX-\"quoted\"-TOKEN"),
        "JSON-escaped needles are found"
    );
    assert!(!reqs[1].contains("absent"));
    assert_eq!(server.turn_requests().len(), 1);
    assert!(server.any_request_contains("CTX-"));
}

#[test]
fn chunked_upload_to_chat_completions() {
    let server = FakeModel::start(Api::OpenAiChat, Script::new([Turn::text("hello")]).with_model("m1")).expect("start");
    let body = br#"{"stream":false,"tools":[{"type":"function"}],"messages":[]}"#;
    let (a, b) = body.split_at(10);
    let mut raw =
        b"POST /v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n".to_vec();
    raw.extend_from_slice(format!("{:x}\r\n", a.len()).as_bytes());
    raw.extend_from_slice(a);
    raw.extend_from_slice(format!("\r\n{:x}\r\n", b.len()).as_bytes());
    raw.extend_from_slice(b);
    raw.extend_from_slice(b"\r\n0\r\n\r\n");
    let (status, _, body) = send(server.addr(), &raw);
    // The interim 100 comes first; the final status follows it.
    assert_eq!(status, 100);
    let text = String::from_utf8_lossy(&body);
    assert!(text.contains("HTTP/1.1 200 OK"), "{text}");
    assert!(text.contains("\"content\":\"hello\""), "{text}");
    let r = &server.requests()[0];
    assert_eq!(r.json().expect("json")["stream"], false);
    let (status, _, body) = send(server.addr(), b"GET /v1/models HTTP/1.1\r\n\r\n");
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_slice::<Value>(&body).expect("json")["data"][0]["id"],
        "m1"
    );
}

#[test]
fn responses_and_gemini_over_the_socket() {
    let codex = tool_then_done(Api::OpenAiResponses, "exec_command", json!({"cmd": "true"}));
    let (_, body) = post_ok(
        codex.addr(),
        "/v1/responses",
        &json!({"stream": true, "tools": [{}], "input": []}),
    );
    assert!(String::from_utf8_lossy(&body).contains("event: response.completed"));

    let gemini = tool_then_done(Api::Gemini, "run_shell_command", json!({"command": "true"}));
    let (_, body) = post_ok(
        gemini.addr(),
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
        &json!({"tools": [{"functionDeclarations": []}], "contents": []}),
    );
    assert!(String::from_utf8_lossy(&body).starts_with("data: {\"candidates\""));
    assert_eq!(gemini.requests()[0].query.as_deref(), Some("alt=sse"));
}

#[test]
fn malformed_requests_get_400_and_are_not_recorded() {
    let server = FakeModel::start(Api::OpenAiChat, Script::new([])).expect("start");
    let (status, _, _) = send(server.addr(), b"NONSENSE\r\n\r\n");
    assert_eq!(status, 400);
    let (status, _, _) = post(server.addr(), "/v1/nowhere", &json!({}));
    assert_eq!(status, 404);
    let (status, _, body) = send(
        server.addr(),
        b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
    );
    assert_eq!(status, 400);
    assert!(String::from_utf8_lossy(&body).contains("not a JSON object"));
    let served: Vec<Served> = server.requests().iter().map(|r| r.served).collect();
    assert_eq!(served, [Served::Error(404), Served::Error(400)]);
}

#[test]
fn stops_on_drop() {
    let server = FakeModel::start(Api::Gemini, Script::new([])).expect("start");
    let addr = server.addr();
    assert!(server.is_running());
    drop(server);
    assert!(TcpStream::connect(addr).is_err(), "listener closed after drop");
}

#[test]
fn stops_after_its_lifetime() {
    let mut server =
        FakeModel::start_with_lifetime(Api::OpenAiChat, Script::new([]), Duration::from_millis(300)).expect("start");
    std::thread::sleep(Duration::from_millis(600));
    assert!(!server.is_running());
    // The acceptor has exited on its own, so its listener is closed.
    let t = Instant::now();
    while TcpStream::connect(server.addr()).is_ok() && t.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(TcpStream::connect(server.addr()).is_err());
    server.shutdown();
    server.shutdown();
}

#[test]
fn a_silent_client_does_not_block_shutdown() {
    let mut server = FakeModel::start(Api::OpenAiChat, Script::new([])).expect("start");
    let _idle = TcpStream::connect(server.addr()).expect("connect");
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    server.shutdown();
    assert!(t.elapsed() < Duration::from_secs(2), "shutdown took {:?}", t.elapsed());
}

#[test]
fn script_positions() {
    let s = Script::tool_then_text("Bash", json!({}), "x");
    assert_eq!(s.turn_at(0).map(|(i, _)| i), Some(0));
    assert_eq!(s.turn_at(1), Some((1, &Turn::text("x"))));
    assert_eq!(s.turn_at(9).map(|(i, _)| i), Some(1));
    assert_eq!(Script::new([]).turn_at(0), None);
    assert_eq!(Script::new([]).reply(0, false, &[]), (Served::Side, Turn::text("ok")));
    assert_eq!(
        s.with_side_text("t").reply(0, true, &[]),
        (Served::Side, Turn::text("t"))
    );
}

#[test]
fn a_matching_tool_call_takes_the_declared_name_in_every_api_shape() {
    let script = || {
        Script::new([
            Turn::tool_call_matching("lookup_order", json!({"order_id": "A-1"})),
            Turn::text("done"),
        ])
    };
    let claude = FakeModel::start(Api::AnthropicMessages, script()).expect("start");
    let (_, body) = post_ok(
        claude.addr(),
        "/v1/messages",
        &json!({"stream": true, "tools": [{"name": "Bash"}, {"name": "mcp__shop_db__lookup_order"}],
                "messages": [{"role": "user", "content": "go"}]}),
    );
    assert!(String::from_utf8_lossy(&body).contains("\"name\":\"mcp__shop_db__lookup_order\""));
    let chat = FakeModel::start(Api::OpenAiChat, script()).expect("start");
    let (_, body) = post_ok(
        chat.addr(),
        "/v1/chat/completions",
        &json!({"stream": false, "tools": [{"type": "function", "function": {"name": "shop_db__lookup_order"}}],
                "messages": [{"role": "user", "content": "go"}]}),
    );
    let v: Value = serde_json::from_slice(&body).expect("json");
    assert_eq!(
        v["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
        "shop_db__lookup_order"
    );
    let gemini = FakeModel::start(Api::Gemini, script()).expect("start");
    let (_, body) = post_ok(
        gemini.addr(),
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
        &json!({"tools": [{"functionDeclarations": [{"name": "read_file"}, {"name": "mcp_shop_db_lookup_order"}]}],
                "contents": [{"role": "user", "parts": [{"text": "go"}]}]}),
    );
    assert!(String::from_utf8_lossy(&body).contains("\"name\":\"mcp_shop_db_lookup_order\""));
    // Codex offers MCP tools inside a Responses namespace: the call names both.
    let codex = FakeModel::start(Api::OpenAiResponses, script()).expect("start");
    let (_, body) = post_ok(
        codex.addr(),
        "/v1/responses",
        &json!({"stream": false, "input": [], "tools": [{"type": "function", "name": "exec_command"},
                {"type": "namespace", "name": "mcp__shop_db", "tools": [{"type": "function", "name": "lookup_order"}]}]}),
    );
    let v: Value = serde_json::from_slice(&body).expect("json");
    assert_eq!(
        (v["output"][0]["namespace"].as_str(), v["output"][0]["name"].as_str()),
        (Some("mcp__shop_db"), Some("lookup_order"))
    );
    // Elsewhere a namespaced call is one flat name.
    let flat = Script::new([Turn::NamespacedToolCall {
        namespace: "mcp__s__".into(),
        name: "t".into(),
        args: json!({}),
    }]);
    let chat = FakeModel::start(Api::OpenAiChat, flat).expect("start");
    let (_, body) = post_ok(
        chat.addr(),
        "/v1/chat/completions",
        &json!({"stream": false, "tools": [{}], "messages": []}),
    );
    let v: Value = serde_json::from_slice(&body).expect("json");
    assert_eq!(
        v["choices"][0]["message"]["tool_calls"][0]["function"]["name"],
        "mcp__s__t"
    );
    // No declared tool matches: the needle itself is called (the agent rejects it visibly).
    let bash = Declared {
        namespace: None,
        name: "Bash".into(),
    };
    let (_, t) = script().reply(0, false, &[bash]);
    assert_eq!(t, Turn::tool_call("lookup_order", json!({"order_id": "A-1"})));
}
