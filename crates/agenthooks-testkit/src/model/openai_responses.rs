//! OpenAI Responses (Codex): `POST /v1/responses` answered as SSE (`response.created`,
//! `response.output_item.added`, `response.output_text.delta` for text, `response.output_item.done`,
//! `response.completed`), or as one JSON response when `stream` is false. A tool call is a
//! `function_call` item whose `arguments` is JSON text (Codex's shell tool is `exec_command`
//! with `{cmd}` on the wire; its hooks see `Bash` with `command`). The history position is the
//! number of model-produced items in `input` (`function_call`, `custom_tool_call`,
//! `local_shell_call`, assistant `message`).

use serde_json::{json, Map, Value};

use super::http::{Request, Response};
use super::{args_text, conversation, Script, Served, Turn};

/// The paths this API is served on.
const PATHS: &[&str] = &["/v1/responses", "/responses"];

pub(super) fn respond(req: &Request, script: &Script, seq: usize) -> (Response, Served) {
    let c = match conversation(req, script, PATHS, assistant_turns) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let item = output_item(&c.turn, seq);
    let stream = c.body.get("stream").and_then(Value::as_bool).unwrap_or(true);
    if !stream {
        return (
            Response::json(200, &response_object(&c.model, seq, "completed", &[item])),
            c.served,
        );
    }
    let mut events = vec![
        json!({"type": "response.created", "response": response_object(&c.model, seq, "in_progress", &[])}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": in_progress(&item)}),
    ];
    if let Turn::Text(t) = &c.turn {
        events.push(json!({"type": "response.output_text.delta", "item_id": item["id"], "output_index": 0, "content_index": 0, "delta": t}));
    }
    events.push(json!({"type": "response.output_item.done", "output_index": 0, "item": item}));
    events.push(json!({"type": "response.completed", "response": response_object(&c.model, seq, "completed", std::slice::from_ref(&item))}));
    let framed: Vec<(Option<&str>, String)> = events.iter().map(|e| (e["type"].as_str(), e.to_string())).collect();
    (Response::sse(&framed), c.served)
}

/// How many model-produced items the history holds.
pub(super) fn assistant_turns(body: &Map<String, Value>) -> usize {
    let Some(items) = body.get("input").and_then(Value::as_array) else {
        return 0;
    };
    items
        .iter()
        .filter(|i| {
            let ty = i.get("type").and_then(Value::as_str);
            let role = i.get("role").and_then(Value::as_str);
            matches!(ty, Some("function_call" | "custom_tool_call" | "local_shell_call"))
                || (role == Some("assistant") && matches!(ty, None | Some("message")))
        })
        .count()
}

fn output_item(turn: &Turn, seq: usize) -> Value {
    match turn {
        Turn::ToolCall { name, args } | Turn::ToolCallMatching { contains: name, args } => json!({
            "type": "function_call", "id": format!("fc_fake_{seq:04}"), "call_id": format!("call_fake_{seq:04}"),
            "name": name, "arguments": args_text(args), "status": "completed",
        }),
        Turn::NamespacedToolCall { namespace, name, args } => json!({
            "type": "function_call", "id": format!("fc_fake_{seq:04}"), "call_id": format!("call_fake_{seq:04}"),
            "namespace": namespace, "name": name, "arguments": args_text(args), "status": "completed",
        }),
        Turn::Text(t) => json!({
            "type": "message", "id": format!("msg_fake_{seq:04}"), "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": t, "annotations": []}],
        }),
    }
}

fn in_progress(item: &Value) -> Value {
    let mut v = item.clone();
    v["status"] = json!("in_progress");
    if v["type"] == "message" {
        v["content"] = json!([]);
    } else {
        v["arguments"] = json!("");
    }
    v
}

fn response_object(model: &str, seq: usize, status: &str, output: &[Value]) -> Value {
    json!({
        "id": format!("resp_fake_{seq:04}"), "object": "response", "created_at": 0, "status": status,
        "model": model, "output": output,
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(body: &Value) -> Request {
        Request::post("/v1/responses", None, body)
    }

    fn script() -> Script {
        Script::tool_then_text("exec_command", json!({"cmd": "echo hi > marker.txt"}), "Done.")
    }

    #[test]
    fn tool_call_then_text() {
        let first = json!({"model": "m", "stream": true, "tools": [{"type": "function", "name": "exec_command"}],
            "input": [{"type": "message", "role": "developer", "content": []}, {"type": "message", "role": "user", "content": []}]});
        let (r, served) = respond(&post(&first), &script(), 7);
        assert_eq!(served, Served::Turn(0));
        let ev = r.data_json();
        let types: Vec<&str> = ev.iter().filter_map(|e| e["type"].as_str()).collect();
        assert_eq!(
            types,
            [
                "response.created",
                "response.output_item.added",
                "response.output_item.done",
                "response.completed"
            ]
        );
        assert_eq!(ev[2]["item"]["name"], "exec_command");
        assert_eq!(ev[2]["item"]["call_id"], "call_fake_0007");
        assert_eq!(ev[2]["item"]["arguments"], "{\"cmd\":\"echo hi > marker.txt\"}");
        assert!(String::from_utf8_lossy(&r.body).starts_with("event: response.created\ndata: {"));

        let second = json!({"stream": true, "tools": [{}], "input": [
            {"type": "message", "role": "user", "content": []},
            {"type": "function_call", "name": "exec_command", "arguments": "{}", "call_id": "c"},
            {"type": "function_call_output", "call_id": "c", "output": "denied: E2E"}]});
        let (r, served) = respond(&post(&second), &script(), 8);
        assert_eq!(served, Served::Turn(1));
        let ev = r.data_json();
        assert_eq!(ev[2]["delta"], "Done.");
        assert_eq!(ev[3]["item"]["content"][0]["text"], "Done.");
        assert_eq!(ev[4]["response"]["status"], "completed");
    }

    #[test]
    fn non_streaming_and_side() {
        let (r, served) = respond(&post(&json!({"stream": false, "input": "hi"})), &script(), 1);
        assert_eq!(served, Served::Side);
        let v: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        assert_eq!(v["output"][0]["content"][0]["text"], "ok");
    }
}
