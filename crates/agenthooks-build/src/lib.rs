//! Build-script helper for hook binaries written with `agenthooks`: one line in the hook's
//! `build.rs` links its optimized Linux binaries so that the process starts without dynamic
//! relocation.
//!
//! ```no_run
//! // build.rs of a hook crate (`agenthooks-build` under `[build-dependencies]`)
//! fn main() {
//!     agenthooks_build::fast_start();
//! }
//! ```
//!
//! A hook process starts on every tool call. A position-independent executable (the
//! toolchain's default on Linux) makes the dynamic loader write every pointer of the binary's
//! static data at start-up: about 14 000 relative relocations for a hook with every codec (the
//! codecs' tables, vtables and string references), and the page faults of touching all of that
//! data. A non-position-independent executable has those addresses fixed at link time. The code
//! stays position-independent (the standard library is built that way); only the final link
//! changes, and only the crate's binaries (`cargo:rustc-link-arg-bins`). The cost: the
//! executable itself is not placed at a random address (shared libraries, stack and heap still
//! are).
//!
//! It applies only where it helps and is known to link: a Linux target, an optimized build
//! (the `release` profile or one inheriting from it), and a linker that accepts `-no-pie` (a
//! probe link of an empty program with the build's own flags checks). Anywhere else — macOS,
//! Windows, debug builds, a linker that refuses the flag — it prints nothing and the build is the
//! toolchain's default. `AGENTHOOKS_PIE=1` in the build's environment keeps the default link (for
//! a before/after measurement).
//!
//! [`fast_start_ordered`] also links one binary with a symbol ordering file: the functions a hook
//! process runs placed together, so the run path is a few contiguous pages instead of pages
//! spread over the whole text.

// A build script's stdout is cargo's instruction channel: this crate's only output.
#![allow(clippy::print_stdout)]
// The examples are a `build.rs`, whose `main` is the point.
#![allow(clippy::needless_doctest_main)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Links the calling crate's binaries for a fast process start (see the [crate] docs): `-no-pie`
/// in optimized Linux builds whose linker takes it; nothing elsewhere. Call it from `build.rs`.
pub fn fast_start() {
    Link::from_env().apply(None);
}

/// [`fast_start`], plus a symbol ordering file for the binary `bin`: `list` names one function
/// per line (mangled, as the linker sees them), in the order the linker should place them.
/// Names the binary does not have are skipped (a stale list only loses the gain). Used only with
/// a linker that takes LLD's `--symbol-ordering-file` (Rust's default linker on `x86_64` Linux
/// since 1.90; a probe link checks); `AGENTHOOKS_ORDER=0` turns it off.
///
/// ```no_run
/// // build.rs
/// fn main() {
///     let list = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("hot-symbols.txt");
///     agenthooks_build::fast_start_ordered("my-hook", &list);
/// }
/// ```
pub fn fast_start_ordered(bin: &str, list: &Path) {
    println!("cargo:rerun-if-env-changed=AGENTHOOKS_ORDER");
    println!("cargo:rerun-if-changed={}", list.display());
    let order = std::env::var_os("AGENTHOOKS_ORDER").is_none_or(|v| v != "0");
    Link::from_env().apply(order.then_some((bin, list)));
}

/// What the build script's environment says about this build.
struct Link {
    /// Linux target, optimized profile.
    applies: bool,
    /// `AGENTHOOKS_PIE=1`.
    keep_pie: bool,
}

impl Link {
    fn from_env() -> Self {
        println!("cargo:rerun-if-env-changed=AGENTHOOKS_PIE");
        let linux = env("CARGO_CFG_TARGET_OS") == "linux";
        // `PROFILE` is `release` for `release` and every profile inheriting from it.
        let optimized = env("PROFILE") == "release";
        Self {
            applies: linux && optimized,
            keep_pie: std::env::var_os("AGENTHOOKS_PIE").is_some_and(|v| v == "1"),
        }
    }

    fn apply(&self, order: Option<(&str, &Path)>) {
        if !self.applies {
            return;
        }
        if !self.keep_pie && probe(&["-no-pie".to_owned()]) {
            println!("cargo:rustc-link-arg-bins=-no-pie");
        }
        let Some((bin, list)) = order else {
            return;
        };
        let empty = PathBuf::from(env("OUT_DIR")).join("agenthooks-probe-order.txt");
        if list.is_file()
            && std::fs::write(&empty, "").is_ok()
            && probe(&[format!("-Wl,--symbol-ordering-file={}", empty.display())])
        {
            println!(
                "cargo:rustc-link-arg-bin={bin}=-Wl,--symbol-ordering-file={}",
                list.display()
            );
            println!("cargo:rustc-link-arg-bin={bin}=-Wl,--no-warn-symbol-ordering");
        }
    }
}

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}

/// Whether an empty program links with `link_args` added, with the build's compiler, target,
/// linker and flags (into `OUT_DIR`).
fn probe(link_args: &[String]) -> bool {
    let out = PathBuf::from(env("OUT_DIR"));
    let source = out.join("agenthooks_probe.rs");
    if std::fs::write(&source, "fn main() {}\n").is_err() {
        return false;
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let mut c = Command::new(rustc);
    c.arg("--target")
        .arg(env("TARGET"))
        .arg("--crate-name=agenthooks_link_probe")
        .arg("--out-dir")
        .arg(&out);
    if let Some(linker) = std::env::var_os("RUSTC_LINKER") {
        c.arg("-C").arg(format!("linker={}", Path::new(&linker).display()));
    }
    for a in link_args {
        c.arg(format!("-Clink-arg={a}"));
    }
    c.arg(&source);
    for flag in env("CARGO_ENCODED_RUSTFLAGS").split('\x1f').filter(|f| !f.is_empty()) {
        c.arg(flag);
    }
    c.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
