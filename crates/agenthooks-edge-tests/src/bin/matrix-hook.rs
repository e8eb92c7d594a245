//! A hook binary on the facade's runner with every real codec, running the scripted handlers
//! ([`agenthooks_edge_tests::scripted`]): what the hostile-input matrix test spawns.
#![allow(clippy::print_stderr)]

fn main() {
    agenthooks_runtime::main_with(&agenthooks::runner(agenthooks_edge_tests::scripted::router()));
    eprintln!("usage: matrix-hook agenthooks run --provider=P --event=E");
    #[allow(clippy::exit)] // the process edge: a usage error
    std::process::exit(2);
}
