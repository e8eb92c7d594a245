//! What the serve tests share: an in-memory sink for response frames, one `serve` run over a
//! text of frames, and a `tool` frame.

use std::io::{BufReader, Write};
use std::sync::{Arc, Mutex};

use agenthooks_core::ProcessEnv;
use agenthooks_runtime::{serve, Runner};

/// Collects the response frames `serve` writes.
#[derive(Clone, Default)]
pub(crate) struct Sink(pub(crate) Arc<Mutex<Vec<u8>>>);
impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Serves `input` (newline-delimited frames) with the test codec and returns what was written.
pub(crate) fn serve_text(runner: &Runner, input: &str) -> String {
    let sink = Sink::default();
    let out: Arc<Mutex<Box<dyn Write + Send>>> = Arc::new(Mutex::new(Box::new(sink.clone())));
    serve(
        runner,
        &agenthooks_edge_tests::ALPHA,
        &mut BufReader::new(input.as_bytes()),
        &out,
        &ProcessEnv,
    );
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

/// A `tool` frame for a `PreToolUse` of `command` in `session`, `extra` appended to its fields.
pub(crate) fn tool_frame(seq: u32, session: &str, command: &str, extra: &str) -> String {
    format!(
        r#"{{"seq":{seq},"hook":"tool","hook_event_name":"PreToolUse","session_id":"{session}","tool_name":"Bash","tool_input":{{"command":"{command}"}}{extra}}}"#
    )
}
