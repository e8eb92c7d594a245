#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agenthooks_fuzz::install_merge(data));
