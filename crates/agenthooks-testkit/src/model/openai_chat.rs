//! OpenAI Chat Completions (Copilot CLI, Kimi Code, OpenCode, OpenClaw): `POST
//! /v1/chat/completions`. With `stream: true` the answer is SSE: a role delta, then for a tool call
//! a `tool_calls` delta with id and name followed by one with the arguments, then the
//! `finish_reason` chunk (`tool_calls` or `stop`), a usage chunk (always sent; agents that set
//! `stream_options.include_usage` expect it) and `[DONE]`. Without `stream` it is one
//! `chat.completion` object. The history position is the number of `role: "assistant"` messages.

use serde_json::{json, Map, Value};

use super::http::{Request, Response};
use super::{args_text, conversation, Flat, Script, Served};

/// The paths this API is served on.
const PATHS: &[&str] = &["/v1/chat/completions", "/chat/completions"];

pub(super) fn respond(req: &Request, script: &Script, seq: usize) -> (Response, Served) {
    let c = match conversation(req, script, PATHS, assistant_turns) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let id = format!("chatcmpl-fake{seq:04}");
    let call_id = format!("call_fake_{seq:04}");
    let usage = json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15});
    let stream = c.body.get("stream").and_then(Value::as_bool).unwrap_or(false);
    if !stream {
        let (message, finish) = match c.turn.flat() {
            Flat::Call(name, args) => (
                json!({"role": "assistant", "content": null, "tool_calls": [
                    {"id": call_id, "type": "function", "function": {"name": name, "arguments": args_text(args)}}]}),
                "tool_calls",
            ),
            Flat::Text(t) => (json!({"role": "assistant", "content": t}), "stop"),
        };
        let v = json!({"id": id, "object": "chat.completion", "created": 0, "&c.model": &c.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage});
        return (Response::json(200, &v), c.served);
    }
    let chunk = |delta: Value, finish: Value| {
        json!({"id": id, "object": "chat.completion.chunk", "created": 0, "&c.model": &c.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        .to_string()
    };
    let mut data = vec![chunk(json!({"role": "assistant", "content": ""}), Value::Null)];
    let finish = match c.turn.flat() {
        Flat::Call(name, args) => {
            data.push(chunk(
                json!({"tool_calls": [{"index": 0, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}]}),
                Value::Null,
            ));
            data.push(chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": args_text(args)}}]}),
                Value::Null,
            ));
            "tool_calls"
        }
        Flat::Text(t) => {
            data.push(chunk(json!({"content": t}), Value::Null));
            "stop"
        }
    };
    data.push(chunk(json!({}), json!(finish)));
    data.push(json!({"id": id, "object": "chat.completion.chunk", "created": 0, "&c.model": &c.model, "choices": [], "usage": usage}).to_string());
    data.push("[DONE]".to_owned());
    let framed: Vec<(Option<&str>, String)> = data.into_iter().map(|d| (None, d)).collect();
    (Response::sse(&framed), c.served)
}

/// How many assistant messages the history holds.
pub(super) fn assistant_turns(body: &Map<String, Value>) -> usize {
    body.get("messages").and_then(Value::as_array).map_or(0, |m| {
        m.iter()
            .filter(|x| x.get("role").and_then(Value::as_str) == Some("assistant"))
            .count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(body: &Value) -> Request {
        Request::post("/v1/chat/completions", None, body)
    }

    fn script() -> Script {
        Script::tool_then_text(
            "bash",
            json!({"command": "echo hi > marker.txt", "description": "write marker"}),
            "Done.",
        )
    }

    fn data(r: &Response) -> Vec<String> {
        String::from_utf8_lossy(&r.body)
            .lines()
            .filter_map(|l| l.strip_prefix("data: "))
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn streamed_tool_call_shape() {
        let body = json!({"model": "m", "stream": true, "stream_options": {"include_usage": true},
            "tools": [{"type": "function", "function": {"name": "bash"}}], "messages": [{"role": "user", "content": "go"}]});
        let (r, served) = respond(&post(&body), &script(), 2);
        assert_eq!(served, Served::Turn(0));
        let d = data(&r);
        assert_eq!(d.len(), 6);
        assert_eq!(d[5], "[DONE]");
        let v: Vec<Value> = d[..5].iter().filter_map(|s| serde_json::from_str(s).ok()).collect();
        assert_eq!(v[0]["choices"][0]["delta"]["role"], "assistant");
        assert_eq!(v[1]["choices"][0]["delta"]["tool_calls"][0]["id"], "call_fake_0002");
        assert_eq!(v[1]["choices"][0]["delta"]["tool_calls"][0]["function"]["name"], "bash");
        let args: Value = serde_json::from_str(
            v[2]["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"]
                .as_str()
                .unwrap_or_default(),
        )
        .unwrap_or_default();
        assert_eq!(args["command"], "echo hi > marker.txt");
        assert_eq!(v[3]["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(v[4]["choices"], json!([]));
        assert_eq!(v[4]["usage"]["total_tokens"], 15);
    }

    #[test]
    fn text_after_tool_result_and_non_stream() {
        let body = json!({"stream": true, "tools": [{}], "messages": [
            {"role": "system", "content": "s"}, {"role": "user", "content": "go"},
            {"role": "assistant", "tool_calls": [{"id": "c"}]}, {"role": "tool", "tool_call_id": "c", "content": "denied"}]});
        let (r, served) = respond(&post(&body), &script(), 0);
        assert_eq!(served, Served::Turn(1));
        let v: Value = serde_json::from_str(&data(&r)[1]).unwrap_or_default();
        assert_eq!(v["choices"][0]["delta"]["content"], "Done.");
        let (r, served) = respond(
            &post(&json!({"messages": [{"role": "user", "content": "title"}]})),
            &script(),
            0,
        );
        assert_eq!(served, Served::Side);
        let v: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        assert_eq!(v["choices"][0]["message"]["content"], "ok");
    }
}
