//! The secret guard hook binary: `secret-guard agenthooks run --provider=P --event=E`.

fn main() {
    agenthooks::main(agenthooks_example::router());
}
