//! Links the example's binaries as position-dependent executables (`-no-pie`) in optimized
//! builds on Linux: a hook process starts for every tool call, and a position-independent
//! executable makes the dynamic loader write every pointer of the binary's static data at start-up
//! (about 14 000 relative relocations for the secret guard with all codecs, most of the loader's
//! page faults). A non-PIE executable has those addresses fixed at link time. The code stays
//! position-independent (the standard library is built that way); only the link changes, and only
//! for this crate's own binaries, never for the library's users (a hook author can do the same in
//! their binary's `build.rs`). Debug builds (tests) keep the toolchain's default.
//! `AGENTHOOKS_EXAMPLE_PIE=1` keeps PIE in optimized builds too (for a before/after measurement).

fn main() {
    println!("cargo:rerun-if-env-changed=AGENTHOOKS_EXAMPLE_PIE");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let optimized = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let keep_pie = std::env::var_os("AGENTHOOKS_EXAMPLE_PIE").is_some_and(|v| v == "1");
    if linux && optimized && !keep_pie {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
