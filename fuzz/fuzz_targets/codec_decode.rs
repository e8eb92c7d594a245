#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agenthooks_fuzz::codec_decode(data));
