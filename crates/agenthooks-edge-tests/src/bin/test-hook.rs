//! A hook binary built on the runner with the test codecs; behaviour chosen by env (see
//! [`agenthooks_edge_tests::scripted`]), and `TEST_STDIN_CAP` = bytes.
#![allow(clippy::print_stdout)]

use agenthooks_runtime::{main_with, RunOptions, Runner};

fn main() {
    let mut opts = RunOptions::default();
    if let Some(cap) = std::env::var("TEST_STDIN_CAP").ok().and_then(|v| v.parse().ok()) {
        opts = opts.with_stdin_cap(cap);
    }
    let runner = Runner::new(
        agenthooks_edge_tests::scripted::router(),
        vec![&agenthooks_edge_tests::ALPHA, &agenthooks_edge_tests::BETA],
    )
    .with_options(opts);
    main_with(&runner);
    println!("usage: test-hook agenthooks run --provider=alpha");
}
