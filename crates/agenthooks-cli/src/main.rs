//! The `agenthooks` binary; see the `agenthooks_cli` crate docs.

fn main() {
    let code = agenthooks_cli::run(
        std::env::args_os(),
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    #[allow(clippy::exit)]
    std::process::exit(code);
}
