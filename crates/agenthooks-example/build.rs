//! Link settings for the example's binaries in optimized Linux builds, through the helper a hook
//! author uses (`agenthooks-build`; README, "Building your hook"). A hook process starts for
//! every tool call, so what the loader and the first page faults cost is paid every time:
//!
//! - **`-no-pie`** (all binaries): no dynamic relocation at start-up (about 14 000 relative
//!   relocations for the secret guard with all codecs when position-independent).
//!   `AGENTHOOKS_PIE=1` keeps PIE (for a before/after measurement).
//! - **A symbol ordering file** (the secret guard): `hot-symbols.txt` lists the functions a hook
//!   process runs (every agent's events, with and without a planted credential), grouped so an
//!   agent's path is contiguous text instead of pages spread over 12 MiB; the kernel maps 64 KiB
//!   around each page fault, so contiguous code takes a few faults where scattered code takes
//!   dozens. Names that no longer exist (another toolchain or dependency version) are skipped,
//!   so a stale list only loses the gain; `hot-symbols.sh` regenerates it.
//!   `AGENTHOOKS_ORDER=0` turns it off.
//!
//! Debug builds (tests) keep the toolchain's defaults.

fn main() {
    let list = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("hot-symbols.txt");
    agenthooks_build::fast_start_ordered("secret-guard", &list);
}
