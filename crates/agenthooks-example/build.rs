//! Link settings for the example's binaries in optimized Linux builds. A hook process starts for
//! every tool call, so what the loader and the first page faults cost is paid every time:
//!
//! - **`-no-pie`** (all binaries): a position-independent executable makes the dynamic loader
//!   write every pointer of the binary's static data at start-up (about 14 000 relative
//!   relocations for the secret guard with all codecs, most of the loader's page faults). A
//!   non-PIE executable has those addresses fixed at link time. The code stays
//!   position-independent (the standard library is built that way); only the link changes.
//!   `AGENTHOOKS_EXAMPLE_PIE=1` keeps PIE (for a before/after measurement).
//! - **A symbol ordering file** (the secret guard): `hot-symbols.txt` lists the functions a hook
//!   process runs (every agent's events, with and without a planted credential), grouped so an
//!   agent's path is contiguous text instead of pages spread over 12 MiB; the kernel maps 64 KiB
//!   around each page fault, so contiguous code takes a few faults where scattered code takes
//!   dozens. Names that no longer exist (another toolchain or dependency version) are skipped,
//!   so a stale list only loses the gain; `hot-symbols.sh` regenerates it. Used only when the
//!   linker takes LLD's `--symbol-ordering-file` (the toolchain's default linker on `x86_64` Linux
//!   since Rust 1.90), which a probe link of an empty program checks;
//!   `AGENTHOOKS_EXAMPLE_ORDER=0` turns it off.
//!
//! Only this crate's own binaries are affected, never the library's users (a hook author can do
//! the same in their binary's `build.rs`). Debug builds (tests) keep the toolchain's defaults.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    println!("cargo:rerun-if-env-changed=AGENTHOOKS_EXAMPLE_PIE");
    println!("cargo:rerun-if-env-changed=AGENTHOOKS_EXAMPLE_ORDER");
    println!("cargo:rerun-if-changed=hot-symbols.txt");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let optimized = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    if !linux || !optimized {
        return;
    }
    let keep_pie = std::env::var_os("AGENTHOOKS_EXAMPLE_PIE").is_some_and(|v| v == "1");
    if !keep_pie {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let order = std::env::var_os("AGENTHOOKS_EXAMPLE_ORDER").is_none_or(|v| v != "0");
    let list = Path::new(&env("CARGO_MANIFEST_DIR")).join("hot-symbols.txt");
    if order && list.is_file() && links_with_ordering() {
        println!(
            "cargo:rustc-link-arg-bin=secret-guard=-Wl,--symbol-ordering-file={}",
            list.display()
        );
        println!("cargo:rustc-link-arg-bin=secret-guard=-Wl,--no-warn-symbol-ordering");
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// Whether the linker rustc uses for this target accepts a symbol ordering file: links an empty
/// program with one (and the build's own flags) into `OUT_DIR`.
fn links_with_ordering() -> bool {
    let out = PathBuf::from(env("OUT_DIR"));
    let empty = out.join("probe-order.txt");
    let source = out.join("probe.rs");
    if std::fs::write(&empty, "").is_err() || std::fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let mut probe = Command::new(rustc);
    probe
        .arg("--target")
        .arg(env("TARGET"))
        .arg("--crate-name=agenthooks_order_probe")
        .arg("--out-dir")
        .arg(&out)
        .arg(format!("-Clink-arg=-Wl,--symbol-ordering-file={}", empty.display()))
        .arg(&source);
    for flag in env("CARGO_ENCODED_RUSTFLAGS").split('\x1f').filter(|f| !f.is_empty()) {
        probe.arg(flag);
    }
    probe
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
