//! The serve daemon's thread count under 2000 sessions, in a test binary of its own: the count
//! is the process's, so no other test may run beside it.
#![allow(missing_docs)]

#[path = "support/serve.rs"]
#[allow(dead_code)] // the sink is the other serve tests'
mod serve_support;

use agenthooks_core::prelude::*;
use agenthooks_runtime::{RunOptions, Runner};

use serve_support::{serve_text, tool_frame};

#[cfg(target_os = "linux")]
#[test]
fn two_thousand_sessions_leave_the_thread_count_bounded() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static MOST: AtomicUsize = AtomicUsize::new(0);
    // The runner's own threads (named `agenthooks-…`; the kernel keeps 15 bytes of a name).
    fn threads() -> usize {
        std::fs::read_dir("/proc/self/task").map_or(0, |tasks| {
            tasks
                .filter_map(Result::ok)
                .filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.starts_with("agenthooks-")))
                .count()
        })
    }
    fn count(_: &Context, _: &ToolPreEvent) -> ToolPreDecision {
        MOST.fetch_max(threads(), Ordering::SeqCst);
        deny("fine")
    }
    let dir = std::env::temp_dir().join(format!("agenthooks-edge-serve-{}-sessions", std::process::id()));
    let runner = Runner::new(Router::new().on_tool_pre(count), vec![&agenthooks_edge_tests::ALPHA])
        .with_options(RunOptions::default().with_state_dir(&dir));
    let before = threads();
    let input: String = (0..2000)
        .map(|i| tool_frame(i, &format!("s{i}"), "ls", "") + "\n")
        .collect();
    let text = serve_text(&runner, &input);
    assert_eq!(text.lines().count(), 2000);
    assert!(text.lines().all(|l| l.contains("\"fine\"")), "every frame answered");
    let most = MOST.load(Ordering::SeqCst);
    // At most 64 session workers kept, the retired ones on their way out and each running
    // handler's own thread: bounded, where a thread per session kept 2000.
    // Retired workers exit on their own schedule: under load (a full test run, 2 cores) up to
    // 215 were seen at once, alone 143; a thread per session would be 2000.
    assert!(most <= before + 400, "{most} threads (from {before})");
    assert!(
        threads() <= before + 8,
        "workers remain after serve returned: {}",
        threads()
    );
}
