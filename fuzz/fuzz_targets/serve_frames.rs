#![no_main]

use std::sync::OnceLock;

static RUNNER: OnceLock<agenthooks::runtime::Runner> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| agenthooks_fuzz::serve_frames(
    RUNNER.get_or_init(agenthooks_fuzz::runner),
    data
));
