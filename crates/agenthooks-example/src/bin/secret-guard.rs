//! The secret guard hook binary.
//!
//! - As a hook: `secret-guard agenthooks run --provider=P --event=E` (what generated configs call).
//! - Installing itself: `secret-guard agenthooks install --provider claude-code` writes the hooks
//!   its router needs, with this package's version (see `agenthooks::main!`); `secret-guard agenthooks manifest` prints them.
//! - As the README's demonstration: `secret-guard demo` drives this very binary, through each
//!   agent's fake-agent harness, over the bundled fixtures of every compiled-in provider and prints
//!   a table: provider, native event, the guard's decision, the wire response and the agent's
//!   verdict. It exits non-zero if a planted credential was not asked about or blocked, or if an
//!   agent would consider any answer malformed.
#![allow(clippy::print_stdout, clippy::print_stderr)]

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("demo") {
        std::process::exit(agenthooks_example::demo::run(&args[2..]));
    }
    // With the audit export, content captured at the `redacted` level goes through the scanner.
    #[cfg(feature = "otel")]
    agenthooks::otel::set_default_redactor(agenthooks_example::redact);
    agenthooks::main!(agenthooks_example::router());
    eprintln!("usage: secret-guard agenthooks install --provider P   |   secret-guard agenthooks run --provider=P --event=E   |   secret-guard demo [--all]");
    std::process::exit(2);
}
