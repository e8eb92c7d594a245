//! Anthropic Messages (Claude Code): `POST /v1/messages[?beta=true]` with `stream: true` answered
//! as SSE (`message_start`, `content_block_start`, `content_block_delta` with `input_json_delta` or
//! `text_delta`, `content_block_stop`, `message_delta` with the stop reason, `message_stop`), or
//! as one JSON message otherwise; `POST /v1/messages/count_tokens`. The history position is the
//! number of `role: "assistant"` messages; other roles (Claude Code also sends `system` entries
//! inside `messages`) are not validated.

use serde_json::{json, Map, Value};

use super::http::{Request, Response};
use super::{args_text, args_value, conversation, json_body, Flat, Script, Served, Turn};

/// The paths this API is served on.
const PATHS: &[&str] = &["/v1/messages"];

pub(super) fn respond(req: &Request, script: &Script, seq: usize) -> (Response, Served) {
    if req.path == "/v1/messages/count_tokens" {
        return match json_body(req) {
            Ok(_) => (Response::json(200, &json!({"input_tokens": 10})), Served::Meta(200)),
            Err(e) => e,
        };
    }
    let c = match conversation(req, script, PATHS, assistant_turns) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let stream = c.body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let resp = if stream {
        sse(&c.turn, &c.model, seq)
    } else {
        Response::json(200, &message(&c.turn, &c.model, seq))
    };
    (resp, c.served)
}

/// How many assistant messages the history holds.
pub(super) fn assistant_turns(body: &Map<String, Value>) -> usize {
    body.get("messages").and_then(Value::as_array).map_or(0, |m| {
        m.iter()
            .filter(|x| x.get("role").and_then(Value::as_str) == Some("assistant"))
            .count()
    })
}

fn usage() -> Value {
    json!({"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0})
}

fn block_and_stop(turn: &Turn, seq: usize) -> (Value, &'static str) {
    match turn.flat() {
        Flat::Call(name, args) => (
            json!({"type": "tool_use", "id": format!("toolu_fake_{seq:04}"), "name": name, "input": args_value(args)}),
            "tool_use",
        ),
        Flat::Text(t) => (json!({"type": "text", "text": t}), "end_turn"),
    }
}

fn message(turn: &Turn, model: &str, seq: usize) -> Value {
    let (block, stop) = block_and_stop(turn, seq);
    json!({
        "id": format!("msg_fake_{seq:04}"), "type": "message", "role": "assistant", "model": model,
        "content": [block], "stop_reason": stop, "stop_sequence": null, "usage": usage(),
    })
}

fn sse(turn: &Turn, model: &str, seq: usize) -> Response {
    let (block, stop) = block_and_stop(turn, seq);
    let (start_block, delta) = match turn.flat() {
        Flat::Call(name, args) => (
            json!({"type": "tool_use", "id": block["id"], "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": args_text(args)}),
        ),
        Flat::Text(t) => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": t}),
        ),
    };
    let start = json!({"type": "message_start", "message": {
        "id": format!("msg_fake_{seq:04}"), "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": null, "stop_sequence": null,
        "usage": {"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }});
    let events = [
        ("message_start", start),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": start_block}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        ("content_block_stop", json!({"type": "content_block_stop", "index": 0})),
        (
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 5}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    Response::sse(&events.map(|(n, v)| (Some(n), v.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(body: &Value) -> Request {
        Request::post("/v1/messages", Some("beta=true"), body)
    }

    fn script() -> Script {
        Script::tool_then_text("Bash", json!({"command": "echo hi > marker.txt"}), "Done.")
    }

    #[test]
    fn first_turn_streams_a_tool_call() {
        let (r, served) = respond(
            &post(
                &json!({"model": "claude-x", "stream": true, "tools": [{"name": "Bash"}],
                "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "go"}]}),
            ),
            &script(),
            3,
        );
        assert_eq!(served, Served::Turn(0));
        let ev = r.data_json();
        let types: Vec<&str> = ev.iter().filter_map(|e| e["type"].as_str()).collect();
        assert_eq!(
            types,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        assert_eq!(ev[1]["content_block"]["name"], "Bash");
        assert_eq!(ev[1]["content_block"]["id"], "toolu_fake_0003");
        let args: Value =
            serde_json::from_str(ev[2]["delta"]["partial_json"].as_str().unwrap_or_default()).unwrap_or_default();
        assert_eq!(args, json!({"command": "echo hi > marker.txt"}));
        assert_eq!(ev[4]["delta"]["stop_reason"], "tool_use");
        assert!(String::from_utf8_lossy(&r.body).starts_with("event: message_start\ndata: "));
    }

    /// Arguments given as text reach the agent verbatim in the stream (a lone surrogate escape
    /// a `Value` could not hold), and as their tolerant parse where an object is sent.
    #[test]
    fn arguments_as_text_are_sent_verbatim() {
        let text = r#"{"command":"ls # \ud800","description":"\udc00"}"#;
        let script = Script::new([Turn::tool_call_text("Bash", text), Turn::text("done")]);
        let body = json!({"model": "m", "stream": true, "tools": [{"name": "Bash"}],
            "messages": [{"role": "user", "content": "go"}]});
        let (r, _) = respond(&post(&body), &script, 1);
        assert_eq!(r.data_json()[2]["delta"]["partial_json"], text);
        let mut plain = body;
        plain["stream"] = json!(false);
        let (r, _) = respond(&post(&plain), &script, 1);
        let v: Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["content"][0]["input"]["command"], "ls # \u{fffd}");
    }

    #[test]
    fn after_the_tool_result_answers_text_and_repeats_it() {
        let history = |n: usize| {
            let mut m = vec![json!({"role": "user", "content": "go"})];
            for _ in 0..n {
                m.push(json!({"role": "assistant", "content": []}));
                m.push(json!({"role": "user", "content": []}));
            }
            json!({"stream": true, "tools": [{}], "messages": m})
        };
        for n in [1, 2, 5] {
            let (r, served) = respond(&post(&history(n)), &script(), 0);
            assert_eq!(served, Served::Turn(1));
            let ev = r.data_json();
            assert_eq!(ev[2]["delta"], json!({"type": "text_delta", "text": "Done."}));
            assert_eq!(ev[4]["delta"]["stop_reason"], "end_turn");
        }
    }

    #[test]
    fn side_requests_and_non_streaming() {
        let (r, served) = respond(
            &post(&json!({"messages": [{"role": "user", "content": "title?"}]})),
            &script(),
            1,
        );
        assert_eq!(served, Served::Side);
        let v: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        assert_eq!(v["content"][0], json!({"type": "text", "text": "ok"}));
        let (r, served) = respond(&post(&json!({"tools": [{}], "messages": []})), &script(), 1);
        assert_eq!(served, Served::Turn(0));
        let v: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        assert_eq!(v["stop_reason"], "tool_use");
        assert_eq!(v["content"][0]["input"], json!({"command": "echo hi > marker.txt"}));
    }

    #[test]
    fn bad_bodies_and_paths() {
        let mut bad = post(&json!(null));
        bad.body = b"{not json".to_vec();
        assert_eq!(respond(&bad, &script(), 0).1, Served::Error(400));
        let mut other = post(&json!({}));
        other.path = "/v1/other".into();
        assert_eq!(respond(&other, &script(), 0).1, Served::Error(404));
        let mut count = post(&json!({"messages": []}));
        count.path = "/v1/messages/count_tokens".into();
        assert_eq!(respond(&count, &script(), 0).1, Served::Meta(200));
    }
}
