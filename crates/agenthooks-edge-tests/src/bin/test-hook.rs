//! A hook binary built on the runner with the test codecs; behaviour chosen by env:
//! `TEST_BEHAVIOR` = noop | deny | ask | context | continue | panic | sleep | println | error,
//! `TEST_FAIL` = open | closed, `TEST_STDIN_CAP` = bytes.
#![allow(clippy::print_stdout)]

use agenthooks_core::prelude::*;
use agenthooks_core::runner::{main_with, RunOptions, Runner};

fn behavior() -> String {
    std::env::var("TEST_BEHAVIOR").unwrap_or_default()
}

fn tool_pre(_cx: &Context, _e: &ToolPreEvent) -> Result<ToolPreDecision, HandlerError> {
    match behavior().as_str() {
        "deny" => Ok(deny("blocked by test")),
        "ask" => Ok(ask_user("really?")),
        "context" => Ok(no_decision().with_context("ctx from test")),
        "panic" => panic!("boom in handler"),
        "sleep" => {
            std::thread::sleep(std::time::Duration::from_secs(30));
            Ok(no_decision())
        }
        "println" => {
            println!("noise from a handler");
            print!("more noise");
            Ok(deny("after noise"))
        }
        "error" => Err(HandlerError::msg("handler failed on purpose")),
        _ => Ok(no_decision()),
    }
}

#[allow(clippy::unnecessary_wraps)]
fn stop(_cx: &Context, _e: &StopEvent) -> Result<StopDecision, HandlerError> {
    if behavior() == "continue" {
        Ok(continue_with("keep going"))
    } else {
        Ok(finish())
    }
}

fn main() {
    let fail_closed = std::env::var("TEST_FAIL").is_ok_and(|v| v == "closed");
    let policy = if fail_closed {
        Policy::default().fail_closed()
    } else {
        Policy::default()
    };
    let router = Router::new().with_policy(policy).on_tool_pre(tool_pre).on_stop(stop);
    let mut opts = RunOptions::default();
    if let Some(cap) = std::env::var("TEST_STDIN_CAP").ok().and_then(|v| v.parse().ok()) {
        opts = opts.with_stdin_cap(cap);
    }
    let runner = Runner::new(
        router,
        vec![&agenthooks_edge_tests::ALPHA, &agenthooks_edge_tests::BETA],
    )
    .with_options(opts);
    main_with(&runner);
    println!("usage: test-hook agenthooks run --provider=alpha");
}
