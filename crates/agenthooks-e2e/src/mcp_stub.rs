//! The MCP stub server of the `mcp` scenario (`src/bin/agenthooks-e2e-mcp.rs`): a stdio server
//! named [`SERVER`] (an underscore inside, so the agents' name mangling is exercised) with two
//! tools, [`TOOL`] and `list_tables`.
//!
//! The transport is MCP's stdio one: JSON-RPC 2.0 messages, one per line, on stdin and stdout.
//! Served: `initialize` (answered with the protocol version the client asks for), the
//! `notifications/initialized` notification, `ping`, `tools/list` and `tools/call` (text
//! content). Any other request gets JSON-RPC error `-32601`; a line that is not JSON gets
//! `-32700`; other notifications are ignored. Every message and every tool call is appended to
//! the log file (when one is given) as a JSON line: `{"method": …}` and `{"call": tool, "arguments": …}`.

use std::io::Write;
use std::path::PathBuf;

use serde_json::{json, Value};

/// The server's name in every agent's config.
pub const SERVER: &str = "shop_db";
/// The tool the scenario's model calls (an underscore inside too).
pub const TOOL: &str = "lookup_order";
/// The order id the model asks for; the tool's answer carries it back.
pub const ORDER_ID: &str = "A-1042";
/// What the tool answers (the text the model gets back).
pub fn tool_answer(order_id: &str) -> String {
    format!("order {order_id}: shipped (from {SERVER})")
}

/// The protocol version answered when the client names none.
const DEFAULT_PROTOCOL: &str = "2025-06-18";

/// The server's state: the log file.
#[derive(Debug)]
pub struct Stub {
    log: Option<PathBuf>,
}

impl Stub {
    /// A stub logging to `log` (`None`: no log).
    pub fn new(log: Option<PathBuf>) -> Self {
        Self { log }
    }

    fn record(&self, v: &Value) {
        let Some(path) = &self.log else { return };
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = writeln!(f, "{v}");
        }
    }

    /// Answers one line from the client: the reply line, or `None` for a notification (or a
    /// blank line).
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        let msg: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return Some(error(&Value::Null, -32700, &format!("parse error: {e}")).to_string()),
        };
        let method = msg.get("method").and_then(Value::as_str).unwrap_or_default();
        self.record(&json!({"method": method}));
        let id = msg.get("id")?.clone();
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        let reply = match method {
            "initialize" => {
                let version = params
                    .get("protocolVersion")
                    .and_then(Value::as_str)
                    .unwrap_or(DEFAULT_PROTOCOL);
                result(
                    &id,
                    &json!({
                        "protocolVersion": version,
                        "capabilities": {"tools": {"listChanged": false}},
                        "serverInfo": {"name": SERVER, "version": env!("CARGO_PKG_VERSION")},
                    }),
                )
            }
            "ping" => result(&id, &json!({})),
            "tools/list" => result(&id, &json!({"tools": tools()})),
            "tools/call" => self.call(&id, &params),
            "" => error(&id, -32600, "invalid request: no method"),
            other => error(&id, -32601, &format!("method not found: {other}")),
        };
        Some(reply.to_string())
    }

    fn call(&self, id: &Value, params: &Value) -> Value {
        let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
        let args = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
        self.record(&json!({"call": name, "arguments": args}));
        let text = match name {
            TOOL => {
                let order = args.get("order_id").and_then(Value::as_str).unwrap_or("?");
                tool_answer(order)
            }
            "list_tables" => "orders, customers".to_owned(),
            other => return error(id, -32602, &format!("unknown tool: {other}")),
        };
        result(
            id,
            &json!({"content": [{"type": "text", "text": text}], "isError": false}),
        )
    }
}

fn tools() -> Value {
    json!([
        {
            "name": TOOL,
            "description": "Look up an order in the shop database by its id.",
            "inputSchema": {
                "type": "object",
                "properties": {"order_id": {"type": "string", "description": "The order id"}},
                "required": ["order_id"],
            },
        },
        {
            "name": "list_tables",
            "description": "List the shop database's tables.",
            "inputSchema": {"type": "object", "properties": {}},
        },
    ])
}

fn result(id: &Value, result: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The tool calls a stub's log records: `(tool, arguments)` in order.
pub fn logged_calls(log: &std::path::Path) -> Vec<(String, Value)> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| Some((v.get("call")?.as_str()?.to_owned(), v.get("arguments")?.clone())))
        .collect()
}

/// The methods a stub's log records, in order.
pub fn logged_methods(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("method")?.as_str().map(str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(stub: &mut Stub, msg: &Value) -> Value {
        let line = stub.handle_line(&msg.to_string()).expect("a reply");
        serde_json::from_str(&line).expect("JSON reply")
    }

    #[test]
    fn a_session_lists_and_calls_and_logs() {
        let log = std::env::temp_dir().join(format!("agenthooks-e2e-mcp-stub-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&log);
        let mut s = Stub::new(Some(log.clone()));
        let init = ask(
            &mut s,
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        );
        assert_eq!(init["id"], 0);
        assert_eq!(init["result"]["protocolVersion"], "2024-11-05");
        assert_eq!(init["result"]["serverInfo"]["name"], SERVER);
        assert!(s
            .handle_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .is_none());
        let list = ask(&mut s, &json!({"jsonrpc": "2.0", "id": "a", "method": "tools/list"}));
        let names: Vec<&str> = list["result"]["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert_eq!(names, [TOOL, "list_tables"]);
        let call = ask(
            &mut s,
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": TOOL, "arguments": {"order_id": ORDER_ID}}}),
        );
        assert_eq!(call["result"]["content"][0]["text"], tool_answer(ORDER_ID));
        assert_eq!(
            ask(&mut s, &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}))["result"],
            json!({})
        );
        assert_eq!(logged_calls(&log), [(TOOL.to_owned(), json!({"order_id": ORDER_ID}))]);
        assert_eq!(
            logged_methods(&log),
            [
                "initialize",
                "notifications/initialized",
                "tools/list",
                "tools/call",
                "ping"
            ]
        );
        let _ = std::fs::remove_file(&log);
    }

    #[test]
    fn errors_for_unknown_methods_tools_and_bad_lines() {
        let mut s = Stub::new(None);
        let r = ask(&mut s, &json!({"jsonrpc": "2.0", "id": 7, "method": "resources/list"}));
        assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (json!(7), json!(-32601)));
        let r = ask(
            &mut s,
            &json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "nope"}}),
        );
        assert_eq!(r["error"]["code"], -32602);
        let r: Value = serde_json::from_str(&s.handle_line("{not json").expect("reply")).expect("json");
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
        assert!(s.handle_line("   ").is_none());
        assert!(s
            .handle_line(r#"{"jsonrpc":"2.0","method":"notifications/cancelled"}"#)
            .is_none());
    }
}
