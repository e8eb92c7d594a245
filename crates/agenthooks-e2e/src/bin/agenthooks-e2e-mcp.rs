//! The e2e suite's MCP stub server: `agenthooks-e2e-mcp [--log FILE]`.
//!
//! Speaks MCP over stdio (JSON-RPC 2.0, one message per line), just enough for an agent to list
//! and call its tools; the logic lives in `agenthooks_e2e::mcp_stub`. With `--log` every message
//! received and every tool call is appended to FILE as JSON lines, so a scenario can check that
//! the agent connected and that the tool really ran.

use std::io::{BufRead, Write};

use agenthooks_e2e::mcp_stub::Stub;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut log = None;
    while let Some(a) = args.next() {
        if a == "--log" {
            log = args.next();
        }
    }
    let mut stub = Stub::new(log.map(std::path::PathBuf::from));
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if let Some(reply) = stub.handle_line(&line) {
            if writeln!(stdout, "{reply}").and_then(|()| stdout.flush()).is_err() {
                break;
            }
        }
    }
}
