//! Warm mode's files and lifecycle: where the token, the port and the running server are
//! recorded, and starting the server on demand.
//!
//! Each hook binary has its own warm directory, `<base>/<name>-<hash>` ([`warm_dir`]): the base
//! is `$AGENTHOOKS_WARM_DIR`, else `$HOME/.agenthooks/warm` (`%USERPROFILE%` on Windows), else
//! the temp dir's `agenthooks-warm`; `<name>` is the executable's file stem and `<hash>` 12 hex
//! digits of the SHA-256 of its canonical path ([`warm_key`]). Two hook binaries (a secret
//! guard and an audit hook) so get two tokens, ports, locks and servers, and neither retires
//! the other; an upgrade in place keeps the path, so the directory, and the build check below
//! restarts the server. Install computes the key from the path the hooks run (the manifest's
//! command), the running binary from its own executable: the same file. The directory holds:
//!
//! - `token`: the random token (64 hex) install generates, mode `0600` on Unix. On Windows the
//!   file gets the user profile's inherited ACL (the user and administrators), which is the
//!   fallback for a mode this platform lacks.
//! - `config.json`: `{"port": N, "build": ID}`, the port install chose (the rendered hook URLs
//!   name it) and the build the last install rendered the hooks for.
//! - `server.json`: `{"pid", "port", "build"}`, written by the running server, removed when it
//!   exits.
//! - `start.lock`: created exclusively by the command hook that starts the server, so two
//!   hooks starting at once start one server; a lock older than [`STALE_LOCK`] is taken over
//!   (its owner died).
//! - `installs.json`: the targets whose hooks install rendered warm (a JSON array of labels);
//!   when uninstall removes the last, it stops the server and removes the directory
//!   ([`remove_install`], [`discard`]).
//!
//! The build id ([`build_id`]) names the binary: its version, size and modification time. A
//! config rendered by one build carries its id in every hook URL; a server of another build
//! refuses such a request and exits, and the next command hook with `--warm` starts the
//! binary now installed. A command hook with `--warm` of the build the config was rendered for
//! that finds a server of another build answering retires it the same way (a request carrying
//! its own build) and starts its own, so after an upgrade and a re-install the first session
//! start already runs the new build. A binary newer than the config (upgraded, not re-installed)
//! leaves a server of the config's build running: that server still answers the config.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::codec::Env;

use super::http::{self, BaseUrl};

/// The variable that overrides the warm directory.
pub const WARM_DIR_ENV: &str = "AGENTHOOKS_WARM_DIR";
/// The token file's name in the warm directory.
pub const TOKEN_FILE: &str = "token";
/// The install-time config's name in the warm directory.
pub const CONFIG_FILE: &str = "config.json";
/// The running server's record's name in the warm directory.
pub const RECORD_FILE: &str = "server.json";
/// The start lock's name in the warm directory.
pub const LOCK_FILE: &str = "start.lock";
/// The list of warm installs' name in the warm directory.
pub const INSTALLS_FILE: &str = "installs.json";
/// The build a request to stop a server names (no build has it, so the server exits).
const UNINSTALLED: &str = "uninstalled";
/// A start lock older than this is taken over.
pub const STALE_LOCK: Duration = Duration::from_secs(10);
/// How long a ping may take.
pub const PING_TIMEOUT: Duration = Duration::from_millis(500);
/// How long [`ensure_running`] waits for a server it started to answer.
pub const START_WAIT: Duration = Duration::from_secs(3);

/// The base of the warm directories for `env`: `$AGENTHOOKS_WARM_DIR`, else
/// `$HOME/.agenthooks/warm` (`%USERPROFILE%`), else the temp dir's `agenthooks-warm`.
///
/// ```
/// use agenthooks_core::runner::warm_state::warm_base;
/// let env = vec![("HOME".to_owned(), "/h".to_owned())];
/// assert_eq!(warm_base(&env), std::path::Path::new("/h/.agenthooks/warm"));
/// ```
pub fn warm_base(env: &dyn Env) -> PathBuf {
    if let Some(d) = env.var(WARM_DIR_ENV).filter(|s| !s.is_empty()) {
        return d.into();
    }
    for home in ["HOME", "USERPROFILE"] {
        if let Some(h) = env.var(home).filter(|s| !s.is_empty()) {
            return Path::new(&h).join(".agenthooks").join("warm");
        }
    }
    std::env::temp_dir().join("agenthooks-warm")
}

/// The key naming the warm directory of the executable at `exe`: its file stem (characters
/// other than ASCII letters, digits, `-`, `_` and `.` become `_`; at most 40) and 12 hex digits
/// of the SHA-256 of its canonical path (the path as given when it cannot be resolved).
///
/// ```
/// use agenthooks_core::runner::warm_state::warm_key;
/// let key = warm_key(std::path::Path::new("/nonexistent/bin/secret-guard"));
/// assert!(key.starts_with("secret-guard-"));
/// assert_eq!(key.len(), "secret-guard-".len() + 12);
/// assert_ne!(key, warm_key(std::path::Path::new("/nonexistent/other/secret-guard")));
/// ```
pub fn warm_key(exe: &Path) -> String {
    use sha2::{Digest, Sha256};
    let path = std::fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let stem = if stem.is_empty() { "hook".to_owned() } else { stem };
    let mut h = Sha256::new();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        h.update(path.as_os_str().as_bytes());
    }
    #[cfg(not(unix))]
    h.update(path.to_string_lossy().as_bytes());
    let hash = crate::digest::hex(&h.finalize());
    format!("{stem}-{}", &hash[..12])
}

/// The warm directory of the hook binary at `exe`: [`warm_base`]`/`[`warm_key`]. Install
/// passes the path the hooks run.
///
/// ```
/// use agenthooks_core::runner::warm_state::{warm_dir_for, warm_key};
/// use std::path::Path;
/// let env = vec![("AGENTHOOKS_WARM_DIR".to_owned(), "/w".to_owned())];
/// let exe = Path::new("/nonexistent/guard");
/// assert_eq!(warm_dir_for(&env, exe), Path::new("/w").join(warm_key(exe)));
/// ```
pub fn warm_dir_for(env: &dyn Env, exe: &Path) -> PathBuf {
    warm_base(env).join(warm_key(exe))
}

/// The running binary's warm directory for `env` (see the module docs): [`warm_dir_for`] its
/// executable (`<base>/agenthooks` when it cannot be found).
pub fn warm_dir(env: &dyn Env) -> PathBuf {
    match std::env::current_exe() {
        Ok(exe) => warm_dir_for(env, &exe),
        Err(_) => warm_base(env).join("agenthooks"),
    }
}

/// This binary's build id: `<version>-<size hex>-<mtime hex>` of the running executable
/// (`<version>` alone when it cannot be read).
pub fn build_id() -> String {
    match std::env::current_exe() {
        Ok(exe) => build_id_of(&exe),
        Err(_) => env!("CARGO_PKG_VERSION").to_owned(),
    }
}

/// The build id of the executable at `exe` as [`build_id`] computes it in that executable
/// (the standalone CLI installing for another binary; assumes the same agenthooks version).
pub fn build_id_of(exe: &Path) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let meta = std::fs::metadata(exe);
    match meta {
        Ok(m) => {
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_secs());
            format!("{version}-{:x}-{mtime:x}", m.len())
        }
        Err(_) => version.to_owned(),
    }
}

/// 32 random bytes as 64 hex digits: `/dev/urandom` on Unix; elsewhere a SHA-256 of the
/// standard library's randomly keyed hasher state, the time and the process id.
fn random_token() -> io::Result<String> {
    let mut bytes = [0u8; 32];
    #[cfg(unix)]
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    #[cfg(not(unix))]
    {
        use sha2::{Digest, Sha256};
        use std::hash::{BuildHasher, Hasher};
        let mut h = Sha256::new();
        for i in 0..4u64 {
            let mut s = std::collections::hash_map::RandomState::new().build_hasher();
            s.write_u64(i);
            h.update(s.finish().to_le_bytes());
        }
        h.update(format!("{:?}{}", SystemTime::now(), std::process::id()));
        bytes.copy_from_slice(&h.finalize());
    }
    Ok(crate::digest::hex(&bytes))
}

/// Writes `contents` to `path`, readable by the owner only on Unix (created `0600`; an existing
/// file is set to `0600`).
pub fn write_private(path: &Path, contents: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        opts.mode(0o600);
        let mut f = opts.open(path)?;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        f.write_all(contents)?;
        f.sync_all()
    }
    #[cfg(not(unix))]
    {
        let mut f = opts.open(path)?;
        f.write_all(contents)
    }
}

/// The token in `dir`, created when there is none.
pub fn ensure_token(dir: &Path) -> io::Result<String> {
    match read_token(dir) {
        Ok(t) => Ok(t),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let t = random_token()?;
            write_private(&dir.join(TOKEN_FILE), t.as_bytes())?;
            Ok(t)
        }
        Err(e) => Err(e),
    }
}

/// The token in `dir`.
pub fn read_token(dir: &Path) -> io::Result<String> {
    let t = std::fs::read_to_string(dir.join(TOKEN_FILE))?;
    let t = t.trim();
    if t.is_empty() {
        return Err(io::Error::new(io::ErrorKind::NotFound, "the warm token file is empty"));
    }
    Ok(t.to_owned())
}

/// The port install recorded in `dir`'s config.
pub fn configured_port(dir: &Path) -> Option<u16> {
    let v: Value = serde_json::from_slice(&std::fs::read(dir.join(CONFIG_FILE)).ok()?).ok()?;
    v.get("port")?.as_u64().and_then(|p| u16::try_from(p).ok())
}

/// Records `port` in `dir`'s config.
pub fn write_config(dir: &Path, port: u16) -> io::Result<()> {
    write_config_for(dir, port, None)
}

/// Records `port` and the build the hooks were rendered for (`None`: keep the recorded one) in
/// `dir`'s config.
///
/// ```
/// use agenthooks_core::runner::warm_state::{configured_build, configured_port, write_config, write_config_for};
/// let dir = std::env::temp_dir().join(format!("agenthooks-warm-doc-{}", std::process::id()));
/// write_config_for(&dir, 4711, Some("0.1.0-abc-def")).unwrap();
/// write_config(&dir, 4712).unwrap(); // a new port keeps the recorded build
/// assert_eq!(
///     (configured_port(&dir), configured_build(&dir).as_deref()),
///     (Some(4712), Some("0.1.0-abc-def"))
/// );
/// # let _ = std::fs::remove_dir_all(&dir);
/// ```
pub fn write_config_for(dir: &Path, port: u16, build: Option<&str>) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let build = build.map(str::to_owned).or_else(|| configured_build(dir));
    let mut v = serde_json::json!({ "port": port });
    if let Some(b) = build {
        v["build"] = Value::from(b);
    }
    std::fs::write(dir.join(CONFIG_FILE), v.to_string())
}

/// The build the last install rendered the hooks for, when recorded.
pub fn configured_build(dir: &Path) -> Option<String> {
    let v: Value = serde_json::from_slice(&std::fs::read(dir.join(CONFIG_FILE)).ok()?).ok()?;
    v.get("build")?.as_str().map(str::to_owned)
}

/// A free loopback port (the system's pick; install records it).
pub fn free_port() -> io::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

/// A running server's record.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerRecord {
    /// Its process id.
    pub pid: u32,
    /// Its port.
    pub port: u16,
    /// Its build id.
    pub build: String,
}

impl ServerRecord {
    /// A record.
    pub fn new(pid: u32, port: u16, build: impl Into<String>) -> Self {
        Self {
            pid,
            port,
            build: build.into(),
        }
    }
}

/// The record in `dir`, if any.
pub fn read_record(dir: &Path) -> Option<ServerRecord> {
    let v: Value = serde_json::from_slice(&std::fs::read(dir.join(RECORD_FILE)).ok()?).ok()?;
    Some(ServerRecord {
        pid: v.get("pid")?.as_u64().and_then(|p| u32::try_from(p).ok())?,
        port: v.get("port")?.as_u64().and_then(|p| u16::try_from(p).ok())?,
        build: v.get("build")?.as_str()?.to_owned(),
    })
}

/// Writes `r` as `dir`'s record.
pub fn write_record(dir: &Path, r: &ServerRecord) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let v = serde_json::json!({"pid": r.pid, "port": r.port, "build": r.build});
    let tmp = dir.join(format!("{RECORD_FILE}.{}", std::process::id()));
    std::fs::write(&tmp, v.to_string())?;
    std::fs::rename(tmp, dir.join(RECORD_FILE))
}

/// Removes `dir`'s record when it is `pid`'s.
pub fn remove_record(dir: &Path, pid: u32) {
    if read_record(dir).is_some_and(|r| r.pid == pid) {
        let _ = std::fs::remove_file(dir.join(RECORD_FILE));
    }
}

/// Pings the server on `port` with `token`: its pong (`version`, `build`, `pid`, `port`), or
/// `None` when nothing answers it.
pub fn ping(port: u16, token: &str, timeout: Duration) -> Option<Value> {
    let base = BaseUrl::parse(&format!("http://127.0.0.1:{port}")).ok()?;
    let auth = format!("Bearer {token}");
    let r = http::request_with(
        &base,
        "POST",
        "/v1/ping",
        Some(&Value::Object(serde_json::Map::new())),
        &[("Authorization", &auth)],
        timeout,
    )
    .ok()?;
    if !r.is_success() {
        return None;
    }
    serde_json::from_str::<Value>(&r.body)
        .ok()
        .filter(|v| v["agenthooks"] == "pong")
}

/// What [`ensure_running`] found or did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ensured {
    /// A server answers on the port: of this build, or (this binary being newer than the
    /// config) of another build, left running.
    Running(ServerRecord),
    /// A server was started (its process id).
    Started(u32),
    /// Another hook holds the start lock (it is starting one).
    Starting,
    /// Warm mode is not set up in this directory (no token or no port).
    NotConfigured,
}

/// Makes sure a server of this build runs for `dir`: pings the configured port, and when
/// nothing of this build answers, takes the start lock and starts `exe agenthooks serve --http`
/// detached (its own process group on Unix, no inherited streams). A server of another build
/// that answers is retired first ([`retire`]: it answers `409` and exits) when this binary is
/// the build the config was rendered for ([`configured_build`]); otherwise (this binary is
/// newer than the config, or the config names no build) it is left running: it answers the
/// config it was rendered with ([`Ensured::Running`]), or its first request from a newer
/// config stops it. A server that does not stop within [`START_WAIT`] is left to the next call
/// ([`Ensured::Starting`]).
pub fn ensure_running(dir: &Path, exe: &Path) -> io::Result<Ensured> {
    let (Ok(token), Some(port)) = (read_token(dir), configured_port(dir)) else {
        return Ok(Ensured::NotConfigured);
    };
    let build = build_id();
    if let Some(pong) = ping(port, &token, PING_TIMEOUT) {
        let pid = pong["pid"].as_u64().and_then(|p| u32::try_from(p).ok()).unwrap_or(0);
        let theirs = pong["build"].as_str().unwrap_or("").to_owned();
        if theirs == build {
            return Ok(Ensured::Running(ServerRecord::new(pid, port, theirs)));
        }
        let wanted = configured_build(dir);
        if wanted.as_deref() != Some(build.as_str()) {
            tracing::warn!(running = %theirs, this = %build, config = ?wanted, "a warm server of another build answers; this binary is not the config's build (re-run install --warm after an upgrade): left running");
            return Ok(Ensured::Running(ServerRecord::new(pid, port, theirs)));
        }
        tracing::info!(running = %theirs, this = %build, pid, "a warm server of another build answers; retiring it");
        if !retire(port, &token, &build) {
            return Ok(Ensured::Starting);
        }
    }
    let lock = dir.join(LOCK_FILE);
    if !take_lock(&lock)? {
        return Ok(Ensured::Starting);
    }
    let mut cmd = std::process::Command::new(exe);
    // The server finds `dir` as this process did: the same executable, the inherited env.
    cmd.args(["agenthooks", "serve", "--http"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let spawned = cmd.spawn();
    // The server removes the lock once it listens; a failed spawn removes it here.
    match spawned {
        Ok(child) => {
            let pid = child.id();
            // Not waited for: the server outlives this hook process. Its readiness is: the
            // session-start hook returns once the server answers, so the session's first
            // http hook finds it listening.
            drop(child);
            let until = std::time::Instant::now() + START_WAIT;
            while std::time::Instant::now() < until {
                if ping(port, &token, PING_TIMEOUT).is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Ok(Ensured::Started(pid))
        }
        Err(e) => {
            let _ = std::fs::remove_file(&lock);
            Err(e)
        }
    }
}

/// Retires the server on `port` that is not of `build`: sends it a hook request carrying
/// `build` (a config written for another build, which it answers `409` and exits on), then
/// waits up to [`START_WAIT`] for the port to stop answering. Whether it stopped.
///
/// ```
/// use agenthooks_core::runner::warm_state::{free_port, retire};
/// // Nothing listens on a port just handed out: nothing to retire.
/// assert!(retire(free_port().unwrap(), "token", "0.1.0-abc-def"));
/// ```
pub fn retire(port: u16, token: &str, build: &str) -> bool {
    if let Ok(base) = BaseUrl::parse(&format!("http://127.0.0.1:{port}")) {
        let auth = format!("Bearer {token}");
        let path = format!("/v1/hook/agenthooks/retire?build={}", http::encode_component(build));
        let _ = http::request_with(
            &base,
            "POST",
            &path,
            Some(&Value::Object(serde_json::Map::new())),
            &[("Authorization", &auth)],
            PING_TIMEOUT,
        );
    }
    let until = std::time::Instant::now() + START_WAIT;
    while std::time::Instant::now() < until {
        match ping(port, token, PING_TIMEOUT) {
            None => return true,
            // The same build answering now: another hook already replaced it.
            Some(p) if p["build"].as_str() == Some(build) => return false,
            Some(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    false
}

/// Creates the start lock exclusively; takes over one older than [`STALE_LOCK`].
fn take_lock(lock: &Path) -> io::Result<bool> {
    if let Some(parent) = lock.parent() {
        std::fs::create_dir_all(parent)?;
    }
    for _ in 0..2 {
        match std::fs::OpenOptions::new().write(true).create_new(true).open(lock) {
            Ok(mut f) => {
                let _ = write!(f, "{}", std::process::id());
                return Ok(true);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let stale = std::fs::metadata(lock)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > STALE_LOCK);
                if !stale {
                    return Ok(false);
                }
                let _ = std::fs::remove_file(lock);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// Releases the start lock (the server calls it once it listens).
pub fn release_lock(dir: &Path) {
    let _ = std::fs::remove_file(dir.join(LOCK_FILE));
}

fn read_installs(dir: &Path) -> Option<Vec<String>> {
    let bytes = std::fs::read(dir.join(INSTALLS_FILE)).ok()?;
    Some(serde_json::from_slice(&bytes).unwrap_or_default())
}

fn write_installs(dir: &Path, list: &[String]) -> io::Result<()> {
    let text = serde_json::to_vec(list).map_err(io::Error::other)?;
    write_private(&dir.join(INSTALLS_FILE), &text)
}

/// Records that install rendered warm hooks for the target `label` (once per label).
///
/// ```
/// use agenthooks_core::runner::warm_state::{add_install, remove_install};
/// let dir = std::env::temp_dir().join(format!("agenthooks-warm-installs-doc-{}", std::process::id()));
/// add_install(&dir, "claude-code (user)").unwrap();
/// assert_eq!(remove_install(&dir, "claude-code (user)").unwrap(), Some(0));
/// # let _ = std::fs::remove_dir_all(dir);
/// ```
pub fn add_install(dir: &Path, label: &str) -> io::Result<()> {
    let mut list = read_installs(dir).unwrap_or_default();
    if !list.iter().any(|l| l == label) {
        list.push(label.to_owned());
    }
    write_installs(dir, &list)
}

/// Forgets the target `label`'s warm hooks (uninstalled, or re-installed as command hooks);
/// the number of warm installs left, `None` when the directory has no list (nothing install
/// recorded: the caller leaves the directory alone).
pub fn remove_install(dir: &Path, label: &str) -> io::Result<Option<usize>> {
    let Some(mut list) = read_installs(dir) else {
        return Ok(None);
    };
    let before = list.len();
    list.retain(|l| l != label);
    if list.len() != before {
        write_installs(dir, &list)?;
    }
    Ok(Some(list.len()))
}

/// Stops the warm server of `dir` when one answers (a request naming no build's id: the
/// server's build check makes it exit, on every platform) and removes the directory. `false`
/// when a server still answers after [`START_WAIT`]: the directory is kept, its token with it,
/// and the server exits on its own when idle.
pub fn discard(dir: &Path) -> io::Result<bool> {
    if let (Ok(token), Some(port)) = (read_token(dir), configured_port(dir)) {
        if ping(port, &token, PING_TIMEOUT).is_some() && !retire(port, &token, UNINSTALLED) {
            tracing::warn!(dir = %dir.display(), port, "the warm server did not stop; its directory is kept");
            return Ok(false);
        }
    }
    match std::fs::remove_dir_all(dir) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(true),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("agenthooks-warm-state-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn the_token_is_created_once_and_private() {
        let d = tmp("token");
        let t = ensure_token(&d).unwrap();
        assert_eq!(t.len(), 64);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(ensure_token(&d).unwrap(), t);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(d.join(TOKEN_FILE)).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let other = tmp("token2");
        assert_ne!(ensure_token(&other).unwrap(), t);
        let _ = std::fs::remove_dir_all(d);
        let _ = std::fs::remove_dir_all(other);
    }

    #[test]
    fn the_lock_admits_one_and_stale_locks_are_taken_over() {
        let d = tmp("lock");
        let lock = d.join(LOCK_FILE);
        assert!(take_lock(&lock).unwrap());
        assert!(!take_lock(&lock).unwrap());
        let old = SystemTime::now() - STALE_LOCK - Duration::from_secs(1);
        std::fs::File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert!(take_lock(&lock).unwrap());
        release_lock(&d);
        assert!(!lock.exists());
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn records_round_trip_and_only_the_owner_removes_its_record() {
        let d = tmp("record");
        assert_eq!(read_record(&d), None);
        let r = ServerRecord::new(42, 4000, "b1");
        write_record(&d, &r).unwrap();
        assert_eq!(read_record(&d), Some(r));
        remove_record(&d, 41);
        assert!(read_record(&d).is_some());
        remove_record(&d, 42);
        assert_eq!(read_record(&d), None);
        write_config(&d, 4321).unwrap();
        assert_eq!((configured_port(&d), configured_build(&d)), (Some(4321), None));
        write_config_for(&d, 4322, Some("b2")).unwrap();
        write_config(&d, 4323).unwrap();
        assert_eq!(
            (configured_port(&d), configured_build(&d).as_deref()),
            (Some(4323), Some("b2"))
        );
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn the_warm_dir_follows_the_environment() {
        let env = vec![("HOME".to_owned(), "/h".to_owned())];
        assert_eq!(warm_base(&env), Path::new("/h/.agenthooks/warm"));
        let exe = std::env::current_exe().unwrap();
        assert_eq!(warm_dir(&env), Path::new("/h/.agenthooks/warm").join(warm_key(&exe)));
        let env = vec![
            ("HOME".to_owned(), "/h".to_owned()),
            (WARM_DIR_ENV.to_owned(), "/w".to_owned()),
        ];
        assert_eq!(warm_dir(&env), Path::new("/w").join(warm_key(&exe)));
    }

    #[test]
    fn the_key_names_the_canonical_path() {
        let d = tmp("key");
        std::fs::create_dir_all(d.join("a")).unwrap();
        std::fs::write(d.join("a/guard"), b"x").unwrap();
        std::fs::create_dir_all(d.join("b")).unwrap();
        std::fs::write(d.join("b/guard"), b"x").unwrap();
        let (a, b) = (warm_key(&d.join("a/guard")), warm_key(&d.join("b/guard")));
        assert!(a.starts_with("guard-") && b.starts_with("guard-"), "{a} {b}");
        assert_ne!(a, b, "two paths, two directories");
        // The same file through another spelling of its path (`..`) is the same directory.
        assert_eq!(a, warm_key(&d.join("b/../a/guard")));
        // Rewritten in place (an upgrade): the same directory.
        std::fs::write(d.join("a/guard"), b"a newer build").unwrap();
        assert_eq!(a, warm_key(&d.join("a/guard")));
        assert!(warm_key(Path::new("/x/we ird$name.exe")).starts_with("we_ird_name-"));
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn the_last_install_removed_discards_the_directory() {
        let d = tmp("installs");
        assert_eq!(remove_install(&d, "a").unwrap(), None, "no list: not ours to judge");
        ensure_token(&d).unwrap();
        write_config(&d, free_port().unwrap()).unwrap();
        add_install(&d, "a").unwrap();
        add_install(&d, "b").unwrap();
        add_install(&d, "a").unwrap();
        assert_eq!(remove_install(&d, "a").unwrap(), Some(1));
        assert_eq!(remove_install(&d, "c").unwrap(), Some(1));
        assert_eq!(remove_install(&d, "b").unwrap(), Some(0));
        assert!(discard(&d).unwrap(), "nothing answered: removed");
        assert!(!d.exists());
    }

    #[test]
    fn ensure_running_needs_a_configured_dir() {
        let d = tmp("unconfigured");
        assert_eq!(
            ensure_running(&d, Path::new("/nonexistent")).unwrap(),
            Ensured::NotConfigured
        );
    }
}
