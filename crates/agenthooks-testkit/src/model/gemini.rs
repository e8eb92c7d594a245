//! Gemini (Gemini CLI): `POST /<version>/models/<model>:streamGenerateContent?alt=sse` answered as
//! SSE `data:` chunks, `…:generateContent` answered as one JSON response, and `…:countTokens`.
//! A tool call is a `functionCall` part (Gemini CLI's shell tool is `run_shell_command
//! {command}`). Requests that ask for structured output (`generationConfig.responseJsonSchema`,
//! `responseSchema` or `responseMimeType: application/json`: the CLI's model router and
//! next-speaker checks) are side requests answered with a value of the requested schema: the
//! first `enum` value, the string `"fake"`, zeros, `false`, empty arrays. The history
//! position is the number of `role: "model"` entries in `contents`.

use serde_json::{json, Map, Value};

use super::http::{Request, Response};
use super::{declared_tools, declares_tools, json_body, not_found, Flat, Script, Served, Turn};

pub(super) fn respond(req: &Request, script: &Script, seq: usize) -> (Response, Served) {
    let Some((model, method)) = parse_path(&req.path) else {
        return not_found(req);
    };
    let body = match json_body(req) {
        Ok(b) => b,
        Err(e) => return e,
    };
    match method {
        "countTokens" => (Response::json(200, &json!({"totalTokens": 10})), Served::Meta(200)),
        "generateContent" | "streamGenerateContent" => {
            let (served, parts) = if let Some(schema) = structured_output(&body) {
                let text = serde_json::to_string(&sample(&schema, 0)).unwrap_or_default();
                (Served::Side, json!([{"text": text}]))
            } else {
                let (served, turn) =
                    script.reply(assistant_turns(&body), !declares_tools(&body), &declared_tools(&body));
                (served, parts(&turn))
            };
            let chunk = json!({
                "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                "modelVersion": model,
                "responseId": format!("fake-{seq:04}"),
            });
            if method == "streamGenerateContent" {
                (Response::sse(&[(None, chunk.to_string())]), served)
            } else {
                (Response::json(200, &chunk), served)
            }
        }
        _ => not_found(req),
    }
}

/// `/v1beta/models/gemini-x:streamGenerateContent` → `("gemini-x", "streamGenerateContent")`.
fn parse_path(path: &str) -> Option<(&str, &str)> {
    let rest = path.strip_prefix('/')?;
    let (_version, rest) = rest.split_once('/')?;
    let rest = rest.strip_prefix("models/")?;
    rest.rsplit_once(':')
}

/// How many model turns the history holds.
pub(super) fn assistant_turns(body: &Map<String, Value>) -> usize {
    body.get("contents").and_then(Value::as_array).map_or(0, |c| {
        c.iter()
            .filter(|x| x.get("role").and_then(Value::as_str) == Some("model"))
            .count()
    })
}

fn structured_output(body: &Map<String, Value>) -> Option<Value> {
    let cfg = body.get("generationConfig")?;
    if let Some(s) = cfg.get("responseJsonSchema").or_else(|| cfg.get("responseSchema")) {
        return Some(s.clone());
    }
    (cfg.get("responseMimeType").and_then(Value::as_str) == Some("application/json")).then(|| json!({"type": "object"}))
}

fn parts(turn: &Turn) -> Value {
    match turn.flat() {
        Flat::Call(name, args) => json!([{"functionCall": {"name": name, "args": super::args_value(args)}}]),
        Flat::Text(t) => json!([{"text": t}]),
    }
}

/// A value that satisfies a (JSON or OpenAPI-style) schema, as simply as possible.
fn sample(schema: &Value, depth: usize) -> Value {
    if depth > 16 {
        return Value::Null;
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|e| e.first()) {
            return sample(first, depth + 1);
        }
    }
    let ty = match schema.get("type") {
        Some(Value::String(s)) => s.to_ascii_lowercase(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null")
            .to_ascii_lowercase(),
        _ if schema.get("properties").is_some() => "object".to_owned(),
        _ => "string".to_owned(),
    };
    match ty.as_str() {
        "object" => {
            let mut m = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, v) in props {
                    m.insert(k.clone(), sample(v, depth + 1));
                }
            }
            Value::Object(m)
        }
        "array" => json!([]),
        "integer" | "number" => json!(0),
        "boolean" => json!(false),
        "null" => Value::Null,
        _ => json!("fake"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(path: &str, body: &Value) -> Request {
        Request::post(path, Some("alt=sse"), body)
    }

    fn script() -> Script {
        Script::tool_then_text("run_shell_command", json!({"command": "echo hi > marker.txt"}), "Done.")
    }

    fn chunk(r: &Response) -> Value {
        let text = String::from_utf8_lossy(&r.body).into_owned();
        let data = text.strip_prefix("data: ").unwrap_or(&text);
        serde_json::from_str(data.trim()).unwrap_or_default()
    }

    #[test]
    fn stream_function_call_then_text() {
        let path = "/v1beta/models/gemini-2.5-pro:streamGenerateContent";
        let tools = json!([{"functionDeclarations": [{"name": "run_shell_command"}]}]);
        let (r, served) = respond(
            &post(
                path,
                &json!({"tools": tools, "contents": [{"role": "user", "parts": [{"text": "go"}]}]}),
            ),
            &script(),
            0,
        );
        assert_eq!(served, Served::Turn(0));
        assert_eq!(r.content_type, "text/event-stream");
        let c = chunk(&r);
        assert_eq!(
            c["candidates"][0]["content"]["parts"][0]["functionCall"],
            json!({"name": "run_shell_command", "args": {"command": "echo hi > marker.txt"}})
        );
        assert_eq!(c["modelVersion"], "gemini-2.5-pro");

        let history = json!({"tools": tools, "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {}}]},
            {"role": "user", "parts": [{"functionResponse": {"response": {"error": "Tool execution blocked: E2E"}}}]}]});
        let (r, served) = respond(&post(path, &history), &script(), 1);
        assert_eq!(served, Served::Turn(1));
        assert_eq!(chunk(&r)["candidates"][0]["content"]["parts"][0]["text"], "Done.");
    }

    #[test]
    fn structured_output_gets_a_schema_value() {
        let body = json!({"contents": [], "generationConfig": {"responseJsonSchema": {"type": "object",
            "properties": {"reasoning": {"type": "string"}, "model_choice": {"type": "string", "enum": ["flash", "pro"]},
                           "n": {"type": ["integer", "null"]}, "tags": {"type": "array"}}}}});
        let (r, served) = respond(
            &post("/v1beta/models/gemini-2.5-flash-lite:generateContent", &body),
            &script(),
            0,
        );
        assert_eq!(served, Served::Side);
        let c: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        let text = c["candidates"][0]["content"]["parts"][0]["text"]
            .as_str()
            .unwrap_or_default();
        let v: Value = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(
            v,
            json!({"reasoning": "fake", "model_choice": "flash", "n": 0, "tags": []})
        );
    }

    #[test]
    fn paths() {
        assert_eq!(
            parse_path("/v1beta/models/m:generateContent"),
            Some(("m", "generateContent"))
        );
        assert_eq!(parse_path("/v1beta/other"), None);
        let (_, served) = respond(&post("/v1beta/models/m:countTokens", &json!({})), &script(), 0);
        assert_eq!(served, Served::Meta(200));
        let (_, served) = respond(&post("/v1beta/models/m:embed", &json!({})), &script(), 0);
        assert_eq!(served, Served::Error(404));
    }
}
