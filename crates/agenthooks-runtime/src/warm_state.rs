//! Warm mode's files and lifecycle: where the token, the port and the running server are
//! recorded, and starting the server on demand.
//!
//! Each hook binary has its own warm directory, `<base>/<name>-<hash>` ([`WarmDir::current`]): the base
//! is `$AGENTHOOKS_WARM_DIR`, else `$HOME/.agenthooks/warm` (`%USERPROFILE%` on Windows), else
//! a per-user `agenthooks-warm-<uid>` in the temp dir; `<name>` is the executable's file stem and `<hash>` 12 hex
//! digits of the SHA-256 of its canonical path ([`WarmDir::key`]). Two hook binaries (a secret
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
//! - `server.json`: `{"pid", "port", "build", "exe"}`, written (`0600`) by the running server,
//!   removed when it exits.
//! - `start.lock`: created exclusively by the command hook that starts the server, so two
//!   hooks starting at once start one server; a lock older than [`STALE_LOCK`] is taken over
//!   (its owner died).
//! - `installs.json`: the targets whose hooks install rendered warm (a JSON array of labels);
//!   when uninstall removes the last, it stops the server and removes the directory
//!   ([`WarmDir::remove_install`], [`WarmDir::discard`]).
//!
//! The build id ([`build_id`]) names the binary: its version, size and modification time. A
//! config rendered by one build carries its id in every hook URL; a server of another build
//! refuses such a request (`409`) but stays up: only the token and a build at least as new as
//! its own retire it ([`WarmDir::retire`]). A command hook with `--warm` (session start) or
//! `--warm-only` (each prompt) of the build the config was rendered for that finds a server of
//! another build answering retires it and starts its own, so after an upgrade and a re-install
//! the first session start or prompt already runs the new build. A binary newer than the config
//! (upgraded, not re-installed) leaves a server of the config's build running: that server
//! still answers the config.
//!
//! Before any of that, the client checks who listens ([`WarmDir::probe`]): a challenge the server
//! answers with an HMAC keyed by the token, and on Linux the socket's owner and the pid and
//! executable `server.json` names. The token goes only over a connection whose listener passed;
//! a listener that fails is an [`Impostor`].

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use crate::codec::Env;

use super::http::{self, BaseUrl, Conn};

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
/// A start lock older than this is taken over.
pub const STALE_LOCK: Duration = Duration::from_secs(10);
/// How long a ping may take (tools and tests; hook processes pass their own deadline).
pub const PING_TIMEOUT: Duration = Duration::from_millis(500);
/// How long [`WarmDir::discard`] waits for a retired server to stop, and the most a hook process's warm
/// check takes (it starts a server and waits for it to prove itself within its deadline).
pub const START_WAIT: Duration = Duration::from_secs(3);

/// One hook binary's warm directory (see the module docs): its token, config, server record,
/// start lock and install list, and the lifecycle over them (probe, ping, start, retire,
/// discard). Install, `doctor`, the server and the hook processes each hold one.
///
/// ```
/// use agenthooks_runtime::warm_state::WarmDir;
/// let dir = WarmDir::at(std::env::temp_dir().join(format!("agenthooks-warm-dir-doc-{}", std::process::id())));
/// let token = dir.ensure_token().unwrap();
/// assert_eq!(dir.token().unwrap(), token, "created once, then read");
/// dir.write_config(4711, Some("0.1.0-abc-def")).unwrap();
/// assert_eq!((dir.port(), dir.build().as_deref()), (Some(4711), Some("0.1.0-abc-def")));
/// assert_eq!(dir.record(), None, "no server runs");
/// # let _ = std::fs::remove_dir_all(dir.path());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WarmDir {
    path: PathBuf,
}

impl WarmDir {
    /// The warm directory at `path` (a test's, or one install recorded).
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The base of the warm directories for `env`: `$AGENTHOOKS_WARM_DIR`, else
    /// `$HOME/.agenthooks/warm` (`%USERPROFILE%`), else a per-user `agenthooks-warm-<uid>` in the
    /// temp dir.
    ///
    /// ```
    /// use agenthooks_runtime::warm_state::WarmDir;
    /// let env = vec![("HOME".to_owned(), "/h".to_owned())];
    /// assert_eq!(WarmDir::base(&env), std::path::Path::new("/h/.agenthooks/warm"));
    /// ```
    pub fn base(env: &dyn Env) -> PathBuf {
        if let Some(d) = env.var(WARM_DIR_ENV).filter(|s| !s.is_empty()) {
            return d.into();
        }
        for home in ["HOME", "USERPROFILE"] {
            if let Some(h) = env.var(home).filter(|s| !s.is_empty()) {
                return Path::new(&h).join(".agenthooks").join("warm");
            }
        }
        // No home: a per-user name in the temp dir (never one shared name every user can take).
        crate::safe_fs::user_temp_dir("agenthooks-warm")
    }

    /// The key naming the warm directory of the executable at `exe`: its file stem (characters
    /// other than ASCII letters, digits, `-`, `_` and `.` become `_`; at most 40) and 12 hex digits
    /// of the SHA-256 of its canonical path (the path as given when it cannot be resolved).
    ///
    /// ```
    /// use agenthooks_runtime::warm_state::WarmDir;
    /// let key = WarmDir::key(std::path::Path::new("/nonexistent/bin/secret-guard"));
    /// assert!(key.starts_with("secret-guard-"));
    /// assert_eq!(key.len(), "secret-guard-".len() + 12);
    /// assert_ne!(key, WarmDir::key(std::path::Path::new("/nonexistent/other/secret-guard")));
    /// ```
    pub fn key(exe: &Path) -> String {
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

    /// The warm directory of the hook binary at `exe`: [`WarmDir::base`]`/`[`WarmDir::key`].
    /// Install passes the path the hooks run.
    ///
    /// ```
    /// use agenthooks_runtime::warm_state::WarmDir;
    /// use std::path::Path;
    /// let env = vec![("AGENTHOOKS_WARM_DIR".to_owned(), "/w".to_owned())];
    /// let exe = Path::new("/nonexistent/guard");
    /// assert_eq!(WarmDir::for_exe(&env, exe).path(), Path::new("/w").join(WarmDir::key(exe)));
    /// ```
    pub fn for_exe(env: &dyn Env, exe: &Path) -> Self {
        Self::at(Self::base(env).join(Self::key(exe)))
    }

    /// The running binary's warm directory for `env` (see the module docs): [`WarmDir::for_exe`]
    /// its executable (`<base>/agenthooks` when it cannot be found).
    pub fn current(env: &dyn Env) -> Self {
        match std::env::current_exe() {
            Ok(exe) => Self::for_exe(env, &exe),
            Err(_) => Self::at(Self::base(env).join("agenthooks")),
        }
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
pub(crate) fn random_token() -> io::Result<String> {
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

impl WarmDir {
    /// The token, created when there is none.
    pub fn ensure_token(&self) -> io::Result<String> {
        let dir = self.path();
        match self.token() {
            Ok(t) => Ok(t),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let t = random_token()?;
                write_private(&dir.join(TOKEN_FILE), t.as_bytes())?;
                Ok(t)
            }
            Err(e) => Err(e),
        }
    }

    /// The token.
    pub fn token(&self) -> io::Result<String> {
        let dir = self.path();
        let t = std::fs::read_to_string(dir.join(TOKEN_FILE))?;
        let t = t.trim();
        if t.is_empty() {
            return Err(io::Error::new(io::ErrorKind::NotFound, "the warm token file is empty"));
        }
        Ok(t.to_owned())
    }

    /// The port install recorded in the config.
    pub fn port(&self) -> Option<u16> {
        let dir = self.path();
        let v: Value = serde_json::from_slice(&std::fs::read(dir.join(CONFIG_FILE)).ok()?).ok()?;
        v.get("port")?.as_u64().and_then(|p| u16::try_from(p).ok())
    }

    /// Records `port` and the build the hooks were rendered for (`None`: keep the recorded one) in
    /// the config.
    ///
    /// ```
    /// use agenthooks_runtime::warm_state::WarmDir;
    /// let dir = WarmDir::at(std::env::temp_dir().join(format!("agenthooks-warm-doc-{}", std::process::id())));
    /// dir.write_config(4711, Some("0.1.0-abc-def")).unwrap();
    /// dir.write_config(4712, None).unwrap(); // a new port keeps the recorded build
    /// assert_eq!(
    ///     (dir.port(), dir.build().as_deref()),
    ///     (Some(4712), Some("0.1.0-abc-def"))
    /// );
    /// # let _ = std::fs::remove_dir_all(dir.path());
    /// ```
    pub fn write_config(&self, port: u16, build: Option<&str>) -> io::Result<()> {
        let dir = self.path();
        std::fs::create_dir_all(dir)?;
        let build = build.map(str::to_owned).or_else(|| self.build());
        let mut v = serde_json::json!({ "port": port });
        if let Some(b) = build {
            v["build"] = Value::from(b);
        }
        std::fs::write(dir.join(CONFIG_FILE), v.to_string())
    }

    /// The build the last install rendered the hooks for, when recorded.
    pub fn build(&self) -> Option<String> {
        let dir = self.path();
        let v: Value = serde_json::from_slice(&std::fs::read(dir.join(CONFIG_FILE)).ok()?).ok()?;
        v.get("build")?.as_str().map(str::to_owned)
    }
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
    /// Its executable, as the server read it from the system (`None` in a record of an older
    /// release).
    pub exe: Option<String>,
}

impl ServerRecord {
    /// A record.
    pub fn new(pid: u32, port: u16, build: impl Into<String>) -> Self {
        Self {
            pid,
            port,
            build: build.into(),
            exe: None,
        }
    }

    /// The record with the server's executable.
    #[must_use]
    pub fn with_exe(mut self, exe: impl Into<String>) -> Self {
        self.exe = Some(exe.into());
        self
    }
}

impl WarmDir {
    /// The running server's record, if any.
    pub fn record(&self) -> Option<ServerRecord> {
        let dir = self.path();
        let v: Value = serde_json::from_slice(&std::fs::read(dir.join(RECORD_FILE)).ok()?).ok()?;
        Some(ServerRecord {
            pid: v.get("pid")?.as_u64().and_then(|p| u32::try_from(p).ok())?,
            port: v.get("port")?.as_u64().and_then(|p| u16::try_from(p).ok())?,
            build: v.get("build")?.as_str()?.to_owned(),
            exe: v.get("exe").and_then(Value::as_str).map(str::to_owned),
        })
    }

    /// Writes `r` as the record.
    pub fn write_record(&self, r: &ServerRecord) -> io::Result<()> {
        let dir = self.path();
        std::fs::create_dir_all(dir)?;
        let mut v = serde_json::json!({"pid": r.pid, "port": r.port, "build": r.build});
        if let Some(exe) = &r.exe {
            v["exe"] = Value::from(exe.clone());
        }
        let tmp = dir.join(format!("{RECORD_FILE}.{}", std::process::id()));
        write_private(&tmp, v.to_string().as_bytes())?;
        std::fs::rename(tmp, dir.join(RECORD_FILE))
    }

    /// Removes the record when it is `pid`'s.
    pub fn remove_record(&self, pid: u32) {
        let dir = self.path();
        if self.record().is_some_and(|r| r.pid == pid) {
            let _ = std::fs::remove_file(dir.join(RECORD_FILE));
        }
    }
}

/// The header a client's challenge travels in (`POST /v1/ping`): a fresh random nonce the
/// server answers with its `proof`.
pub const NONCE_HEADER: &str = "x-agenthooks-nonce";

/// HMAC-SHA256 (RFC 2104) of the concatenation of `parts` under `key`.
///
/// ```
/// use agenthooks_runtime::warm_state::hmac_sha256;
/// // RFC 4231, test case 2.
/// let mac = hmac_sha256(b"Jefe", &[b"what do ya want ", b"for nothing?"]);
/// assert_eq!(
///     agenthooks_core::digest::hex(&mac),
///     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
/// );
/// ```
pub fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(k.map(|b| b ^ 0x36));
    for p in parts {
        inner.update(p);
    }
    let mut outer = Sha256::new();
    outer.update(k.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// Compares two byte strings without an early exit on the first difference (the length is
/// not hidden; proofs and bearers have a fixed one).
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The server's answer to a challenge: hex `HMAC-SHA256(token, nonce || build)`. Only a
/// process that can read the token file computes it; the token itself never crosses the wire.
///
/// ```
/// use agenthooks_runtime::warm_state::proof;
/// let p = proof("token", "nonce", "0.1.0-abc-def");
/// assert_eq!(p.len(), 64);
/// assert_ne!(p, proof("token", "nonce", "0.1.0-abc-deg"), "the build is part of the proof");
/// ```
pub fn proof(token: &str, nonce: &str, build: &str) -> String {
    crate::digest::hex(&hmac_sha256(token.as_bytes(), &[nonce.as_bytes(), build.as_bytes()]))
}

/// The credential the agents' http hooks carry: hex `HMAC-SHA256(token, "agenthooks-warm-bearer-v1")`.
/// It lets a request through to the hook routes, but a reader of the config file that holds
/// it can neither prove to be the server (that takes the token) nor stop the server.
pub fn bearer(token: &str) -> String {
    crate::digest::hex(&hmac_sha256(token.as_bytes(), &[b"agenthooks-warm-bearer-v1"]))
}

/// Whether build id `a` is at least as new as build id `b` (see [`build_id`]): the same id, or
/// a version at least as high and an executable modified no earlier. Ids that do not parse
/// compare only as equal.
///
/// ```
/// use agenthooks_runtime::warm_state::build_at_least;
/// assert!(build_at_least("0.1.0-10-6500", "0.1.0-20-6400"));
/// assert!(build_at_least("0.2.0-10-6400", "0.1.0-20-6400"));
/// assert!(!build_at_least("0.1.0-10-6300", "0.1.0-20-6400"));
/// assert!(!build_at_least("0.1.0-10-6500", "0.2.0-20-6400"));
/// assert!(!build_at_least("uninstalled", "0.1.0-20-6400"));
/// ```
pub fn build_at_least(a: &str, b: &str) -> bool {
    fn parse(id: &str) -> Option<(Vec<u64>, u64)> {
        let mut it = id.rsplitn(3, '-');
        let mtime = u64::from_str_radix(it.next()?, 16).ok()?;
        let _size = u64::from_str_radix(it.next()?, 16).ok()?;
        let version = it.next()?;
        let core = version.split(['-', '+']).next()?;
        let nums = core.split('.').map(|n| n.parse().ok()).collect::<Option<Vec<u64>>>()?;
        Some((nums, mtime))
    }
    if a == b {
        return true;
    }
    match (parse(a), parse(b)) {
        (Some((va, ma)), Some((vb, mb))) => va >= vb && ma >= mb,
        _ => false,
    }
}

/// A listener on the warm port that did not prove to be this hook binary's server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Impostor {
    /// The port.
    pub port: u16,
    /// The listening process, when known (on Linux when it is this user's; else the pid it
    /// claims).
    pub pid: Option<u32>,
    /// The user owning the listening socket (Linux).
    pub uid: Option<u32>,
    /// What failed.
    pub why: String,
}

impl std::fmt::Display for Impostor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let opt = |v: Option<u32>| v.map_or_else(|| "unknown".to_owned(), |v| v.to_string());
        write!(
            f,
            "the listener on 127.0.0.1:{} (pid {}, uid {}) is not this hook's warm server ({}); it was sent no credential",
            self.port,
            opt(self.pid),
            opt(self.uid),
            self.why
        )
    }
}

/// A connection to a server that proved, on this connection, to be this hook binary's: the
/// token may go over it.
#[derive(Debug)]
pub struct Verified {
    conn: Conn,
    token: String,
    /// What the server said of itself (its pid, port and build; verified).
    pub record: ServerRecord,
}

impl Verified {
    /// POSTs `body` to `path` with the token, on the verified connection (kept open for
    /// another request when the server allows).
    pub fn post(&mut self, path: &str, body: &Value) -> Result<http::Response, http::HttpError> {
        let auth = format!("Bearer {}", self.token);
        let body = serde_json::to_vec(body).unwrap_or_default();
        self.conn
            .send("POST", path, Some(&body), &[("Authorization", &auth)], true)
    }
}

/// What is on the warm port.
#[derive(Debug)]
#[non_exhaustive]
pub enum Probe {
    /// Nothing listens.
    Down,
    /// Our server, verified.
    Ours(Verified),
    /// A listener that did not prove to be ours.
    Impostor(Impostor),
}

impl WarmDir {
    /// Finds out who listens on `port` without giving the token away: sends a random nonce to
    /// `POST /v1/ping` and checks the answer's proof ([`proof`]) with `token`; on Linux also that
    /// the socket answering is owned by this user and held by the process this directory's `server.json`
    /// names, running the executable it names. Everything happens by `deadline`; the answer's head
    /// and body are capped.
    pub fn probe(&self, port: u16, token: &str, deadline: Instant) -> Probe {
        let Ok(base) = BaseUrl::parse(&format!("http://127.0.0.1:{port}")) else {
            return Probe::Down;
        };
        let impostor =
            |pid: Option<u32>, uid: Option<u32>, why: String| Probe::Impostor(Impostor { port, pid, uid, why });
        let mut conn = match Conn::open(&base, deadline) {
            Ok(c) => c.with_body_cap(16 << 10),
            Err(http::HttpError::Io(e)) if e.kind() == io::ErrorKind::ConnectionRefused => return Probe::Down,
            Err(e) => return impostor(None, None, format!("connecting: {e}")),
        };
        let Ok(nonce) = random_token() else {
            return impostor(None, None, "no random nonce".into());
        };
        let answer = conn.send("POST", "/v1/ping", Some(b"{}"), &[(NONCE_HEADER, &nonce)], true);
        // Read once the server answered: a connection not accepted yet has no owner's inode.
        let owner = socket_owner(conn.stream());
        let uid = owner.map(|o| o.0);
        let pong = match answer {
            Ok(r) if r.is_success() => serde_json::from_str::<Value>(&r.body).ok(),
            Ok(r) => return impostor(None, uid, format!("ping answered {}", r.status)),
            Err(e) => return impostor(None, uid, format!("ping: {e}")),
        };
        let Some(pong) = pong.filter(|v| v["agenthooks"] == "pong") else {
            return impostor(None, uid, "the ping answer is not a pong".into());
        };
        let pid = pong["pid"].as_u64().and_then(|p| u32::try_from(p).ok());
        let build = pong["build"].as_str().unwrap_or_default().to_owned();
        let given = pong["proof"].as_str().unwrap_or_default();
        if !constant_time_eq(given.as_bytes(), proof(token, &nonce, &build).as_bytes()) {
            return impostor(pid, uid, "it does not know the token (wrong challenge proof)".into());
        }
        let record = ServerRecord::new(pid.unwrap_or(0), port, build);
        if let Err(why) = check_owner(self, &record, owner) {
            let pid = owner.and_then(|o| o.2).or(pid);
            return impostor(pid, uid, why);
        }
        Probe::Ours(Verified {
            conn,
            token: token.to_owned(),
            record,
        })
    }
}

/// The listening process's `(uid, socket inode, pid when found)` of the server side of
/// `stream` (Linux: `/proc/net/tcp{,6}`; the pid is looked up among the recorded server's).
#[cfg(target_os = "linux")]
fn socket_owner(stream: &std::net::TcpStream) -> Option<(u32, u64, Option<u32>)> {
    use std::net::SocketAddr;
    fn hex(addr: SocketAddr) -> String {
        match addr {
            SocketAddr::V4(a) => format!("{:08X}:{:04X}", u32::from_ne_bytes(a.ip().octets()), a.port()),
            SocketAddr::V6(a) => {
                let o = a.ip().octets();
                let mut words = String::with_capacity(32);
                for c in o.chunks(4) {
                    use std::fmt::Write as _;
                    let _ = write!(words, "{:08X}", u32::from_ne_bytes([c[0], c[1], c[2], c[3]]));
                }
                format!("{words}:{:04X}", a.port())
            }
        }
    }
    let (peer, local) = (stream.peer_addr().ok()?, stream.local_addr().ok()?);
    let table = if peer.is_ipv4() {
        "/proc/net/tcp"
    } else {
        "/proc/net/tcp6"
    };
    let (want_local, want_remote) = (hex(peer), hex(local));
    let text = std::fs::read_to_string(table).ok()?;
    text.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        // ESTABLISHED only: a TIME_WAIT entry of an earlier connection on the same ports
        // (loopback reuses them) has no owner.
        (f.len() > 9 && f[1] == want_local && f[2] == want_remote && f[3] == "01")
            .then(|| Some((f[7].parse().ok()?, f[9].parse().ok()?, None)))
            .flatten()
    })
}

#[cfg(not(target_os = "linux"))]
fn socket_owner(_stream: &std::net::TcpStream) -> Option<(u32, u64, Option<u32>)> {
    None
}

/// This process's effective uid (Linux: `/proc/self/status`).
#[cfg(target_os = "linux")]
fn effective_uid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(2)?.parse().ok()
}

/// Linux: the socket answering is this user's, held by the process `dir`'s record names
/// (which is the pid the pong claims), and that process runs the executable the record names.
#[cfg(target_os = "linux")]
fn check_owner(dir: &WarmDir, claimed: &ServerRecord, owner: Option<(u32, u64, Option<u32>)>) -> Result<(), String> {
    let Some((uid, inode, _)) = owner else {
        return Err("its socket is not in /proc/net/tcp".into());
    };
    if effective_uid() != Some(uid) {
        return Err(format!("its socket belongs to uid {uid}, not this user"));
    }
    let Some(record) = dir.record() else {
        return Err("no server.json names it".into());
    };
    if record.pid != claimed.pid || record.port != claimed.port {
        return Err(format!(
            "server.json names pid {} on port {}, the listener says pid {}",
            record.pid, record.port, claimed.pid
        ));
    }
    let socket = format!("socket:[{inode}]");
    let holds = std::fs::read_dir(format!("/proc/{}/fd", record.pid)).is_ok_and(|mut fds| {
        fds.any(|fd| fd.is_ok_and(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == socket.as_str())))
    });
    if !holds {
        return Err(format!("pid {} does not hold the answering socket", record.pid));
    }
    let exe =
        std::fs::read_link(format!("/proc/{}/exe", record.pid)).map_err(|e| format!("pid {}: {e}", record.pid))?;
    let exe = exe.to_string_lossy();
    let exe = exe.strip_suffix(" (deleted)").unwrap_or(&exe);
    match record.exe.as_deref() {
        Some(recorded) if recorded == exe => Ok(()),
        recorded => Err(format!("pid {} runs {exe}, server.json names {recorded:?}", record.pid)),
    }
}

/// Elsewhere the proof alone vouches for the server.
#[cfg(not(target_os = "linux"))]
#[allow(clippy::unnecessary_wraps)] // the Linux build's signature
fn check_owner(_dir: &WarmDir, _claimed: &ServerRecord, _owner: Option<(u32, u64, Option<u32>)>) -> Result<(), String> {
    Ok(())
}

impl WarmDir {
    /// Pings our server on `port`: its pong (`version`, `build`, `pid`, `port`) when a server that
    /// proved to be ours ([`WarmDir::probe`]) answers within `timeout`, `None` otherwise.
    pub fn ping(&self, port: u16, token: &str, timeout: Duration) -> Option<Value> {
        match self.probe(port, token, Instant::now() + timeout) {
            Probe::Ours(v) => Some(serde_json::json!({
                "agenthooks": "pong",
                "pid": v.record.pid,
                "port": v.record.port,
                "build": v.record.build,
            })),
            _ => None,
        }
    }
}

/// What [`WarmDir::ensure_running`] found or did.
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
    /// Something that is not our server listens on the port: nothing was sent to it and no
    /// server started (the port is taken); the http hooks fail as for a missing server.
    Impostor(Impostor),
}

/// Registers `session` with a verified server (its idle exit waits for the session's end).
fn open_session(v: &mut Verified, session: Option<&str>) {
    if let Some(id) = session.filter(|s| !s.is_empty()) {
        if let Err(e) = v.post("/v1/session/start", &serde_json::json!({ "session": id })) {
            tracing::debug!(error = %e, "could not register the session with the warm server");
        }
    }
}

impl WarmDir {
    /// Makes sure a server of this build runs for this directory, by `deadline`: probes the configured
    /// port ([`WarmDir::probe`]); when nothing answers, takes the start lock and starts `exe agenthooks
    /// serve --http` detached (its own process group on Unix, no inherited streams), then waits
    /// for it to prove itself. A verified server of another build is retired first ([`WarmDir::retire`])
    /// when this binary is the build the config was rendered for ([`WarmDir::build`]);
    /// otherwise (this binary is newer than the config, or the config names no build) it is left
    /// running: it answers the config it was rendered with ([`Ensured::Running`]). A listener that
    /// does not prove to be ours gets nothing ([`Ensured::Impostor`]). `session` (the agent's
    /// session id) is registered with the server that runs, so it does not exit while the session
    /// is open.
    pub fn ensure_running(&self, exe: &Path, deadline: Instant, session: Option<&str>) -> io::Result<Ensured> {
        let dir = self.path();
        let (Ok(token), Some(port)) = (self.token(), self.port()) else {
            return Ok(Ensured::NotConfigured);
        };
        let build = build_id();
        match self.probe(port, &token, deadline) {
            Probe::Impostor(i) => return Ok(Ensured::Impostor(i)),
            Probe::Ours(mut v) => {
                let theirs = v.record.build.clone();
                if theirs == build {
                    open_session(&mut v, session);
                    return Ok(Ensured::Running(v.record));
                }
                let wanted = self.build();
                if wanted.as_deref() != Some(build.as_str()) {
                    tracing::warn!(running = %theirs, this = %build, config = ?wanted, "a warm server of another build answers; this binary is not the config's build (re-run install --warm after an upgrade): left running");
                    open_session(&mut v, session);
                    return Ok(Ensured::Running(v.record));
                }
                tracing::info!(running = %theirs, this = %build, pid = v.record.pid, "a warm server of another build answers; retiring it");
                drop(v);
                if !self.retire(port, &token, &build, deadline) {
                    return Ok(Ensured::Starting);
                }
            }
            Probe::Down => {}
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
                // session-start hook returns once the server proved itself, so the session's
                // first http hook finds it listening.
                drop(child);
                while Instant::now() < deadline {
                    let step = deadline.min(Instant::now() + Duration::from_millis(200));
                    match self.probe(port, &token, step) {
                        Probe::Ours(mut v) => {
                            open_session(&mut v, session);
                            break;
                        }
                        Probe::Impostor(i) if i.why.starts_with("it does not know") => {
                            return Ok(Ensured::Impostor(i));
                        }
                        _ => std::thread::sleep(Duration::from_millis(10)),
                    }
                }
                Ok(Ensured::Started(pid))
            }
            Err(e) => {
                let _ = std::fs::remove_file(&lock);
                Err(e)
            }
        }
    }

    /// Retires our server on `port` whose build is not `build`: on a verified connection
    /// ([`WarmDir::probe`]) sends `POST /v1/retire` with the token and `build` (the server exits only when
    /// `build` is at least as new as its own, [`build_at_least`]), then waits, by `deadline`, for
    /// the port to stop answering. Whether it stopped (nothing listening counts as stopped; a
    /// listener that is not ours does not).
    ///
    /// ```
    /// use agenthooks_runtime::warm_state::{free_port, WarmDir, START_WAIT};
    /// // Nothing listens on a port just handed out: nothing to retire.
    /// let dir = WarmDir::at(std::env::temp_dir().join("agenthooks-retire-doc"));
    /// let deadline = std::time::Instant::now() + START_WAIT;
    /// assert!(dir.retire(free_port().unwrap(), "token", "0.1.0-abc-def", deadline));
    /// ```
    pub fn retire(&self, port: u16, token: &str, build: &str, deadline: Instant) -> bool {
        match self.probe(port, token, deadline) {
            Probe::Down => return true,
            Probe::Impostor(i) => {
                tracing::warn!(%i, "not retiring a listener that is not ours");
                return false;
            }
            Probe::Ours(mut v) => {
                if let Ok(r) = v.post("/v1/retire", &serde_json::json!({ "build": build })) {
                    if !r.is_success() {
                        tracing::warn!(status = r.status, answer = %r.body, "the warm server refused to retire");
                        return false;
                    }
                }
            }
        }
        while Instant::now() < deadline {
            // Short probes: a server on its way out still holds its listening socket for a moment
            // (connections are accepted by the system, never answered).
            let step = deadline.min(Instant::now() + Duration::from_millis(200));
            match self.probe(port, token, step) {
                Probe::Down => return true,
                // The same build answering now: another hook already replaced it.
                Probe::Ours(v) if v.record.build == build => return false,
                Probe::Impostor(i) if i.why.starts_with("it does not know") => return false,
                Probe::Ours(_) | Probe::Impostor(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        false
    }
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

impl WarmDir {
    /// Releases the start lock (the server calls it once it listens).
    pub fn release_lock(&self) {
        let dir = self.path();
        let _ = std::fs::remove_file(dir.join(LOCK_FILE));
    }

    /// The targets install rendered warm hooks for (`installs.json`), `None` when no install
    /// recorded a list.
    pub fn installs(&self) -> Option<Vec<String>> {
        let dir = self.path();
        let bytes = std::fs::read(dir.join(INSTALLS_FILE)).ok()?;
        Some(serde_json::from_slice(&bytes).unwrap_or_default())
    }

    fn write_installs(&self, list: &[String]) -> io::Result<()> {
        let dir = self.path();
        let text = serde_json::to_vec(list).map_err(io::Error::other)?;
        write_private(&dir.join(INSTALLS_FILE), &text)
    }

    /// Records that install rendered warm hooks for the target `label` (once per label).
    ///
    /// ```
    /// use agenthooks_runtime::warm_state::WarmDir;
    /// let dir = WarmDir::at(std::env::temp_dir().join(format!("agenthooks-warm-installs-doc-{}", std::process::id())));
    /// dir.add_install("claude-code (user)").unwrap();
    /// assert_eq!(dir.installs(), Some(vec!["claude-code (user)".to_owned()]));
    /// assert_eq!(dir.remove_install("claude-code (user)").unwrap(), Some(0));
    /// # let _ = std::fs::remove_dir_all(dir.path());
    /// ```
    pub fn add_install(&self, label: &str) -> io::Result<()> {
        let mut list = self.installs().unwrap_or_default();
        if !list.iter().any(|l| l == label) {
            list.push(label.to_owned());
        }
        self.write_installs(&list)
    }

    /// Forgets the target `label`'s warm hooks (uninstalled, or re-installed as command hooks);
    /// the number of warm installs left, `None` when the directory has no list (nothing install
    /// recorded: the caller leaves the directory alone).
    pub fn remove_install(&self, label: &str) -> io::Result<Option<usize>> {
        let Some(mut list) = self.installs() else {
            return Ok(None);
        };
        let before = list.len();
        list.retain(|l| l != label);
        if list.len() != before {
            self.write_installs(&list)?;
        }
        Ok(Some(list.len()))
    }

    /// Stops this directory's warm server when one of ours answers (a retire request with the token
    /// and `build`, which must be at least as new as the server's: the binary the hooks run) and
    /// removes the directory. `false` when a server still answers after [`START_WAIT`], or when
    /// the listener on the port is not ours: the directory is kept, its token with it, and our
    /// server exits on its own once no session uses it.
    pub fn discard(&self, build: &str) -> io::Result<bool> {
        let dir = self.path();
        if let (Ok(token), Some(port)) = (self.token(), self.port()) {
            let deadline = Instant::now() + START_WAIT + PING_TIMEOUT;
            if !matches!(self.probe(port, &token, deadline), Probe::Down) && !self.retire(port, &token, build, deadline)
            {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warm directory not made yet, in a fresh scratch directory.
    fn tmp(tag: &str) -> WarmDir {
        WarmDir::at(crate::safe_fs::tests::scratch(&format!("warm-state-{tag}")).join("warm"))
    }

    #[test]
    fn the_token_is_created_once_and_private() {
        let d = tmp("token");
        let t = d.ensure_token().unwrap();
        assert_eq!(t.len(), 64);
        assert!(t.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(d.ensure_token().unwrap(), t);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(d.path().join(TOKEN_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let other = tmp("token2");
        assert_ne!(other.ensure_token().unwrap(), t);
        let _ = std::fs::remove_dir_all(d.path());
        let _ = std::fs::remove_dir_all(other.path());
    }

    #[test]
    fn the_lock_admits_one_and_stale_locks_are_taken_over() {
        let d = tmp("lock");
        let lock = d.path().join(LOCK_FILE);
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
        d.release_lock();
        assert!(!lock.exists());
        let _ = std::fs::remove_dir_all(d.path());
    }

    #[test]
    fn records_round_trip_and_only_the_owner_removes_its_record() {
        let d = tmp("record");
        assert_eq!(d.record(), None);
        let r = ServerRecord::new(42, 4000, "b1");
        d.write_record(&r).unwrap();
        assert_eq!(d.record(), Some(r));
        d.remove_record(41);
        assert!(d.record().is_some());
        d.remove_record(42);
        assert_eq!(d.record(), None);
        d.write_config(4321, None).unwrap();
        assert_eq!((d.port(), d.build()), (Some(4321), None));
        d.write_config(4322, Some("b2")).unwrap();
        d.write_config(4323, None).unwrap();
        assert_eq!((d.port(), d.build().as_deref()), (Some(4323), Some("b2")));
        let _ = std::fs::remove_dir_all(d.path());
    }

    #[test]
    fn the_warm_dir_follows_the_environment() {
        let env = vec![("HOME".to_owned(), "/h".to_owned())];
        assert_eq!(WarmDir::base(&env), Path::new("/h/.agenthooks/warm"));
        let exe = std::env::current_exe().unwrap();
        assert_eq!(
            WarmDir::current(&env).path(),
            Path::new("/h/.agenthooks/warm").join(WarmDir::key(&exe))
        );
        let env = vec![
            ("HOME".to_owned(), "/h".to_owned()),
            (WARM_DIR_ENV.to_owned(), "/w".to_owned()),
        ];
        assert_eq!(WarmDir::current(&env).path(), Path::new("/w").join(WarmDir::key(&exe)));
    }

    #[test]
    fn the_key_names_the_canonical_path() {
        let d = tmp("key");
        std::fs::create_dir_all(d.path().join("a")).unwrap();
        std::fs::write(d.path().join("a/guard"), b"x").unwrap();
        std::fs::create_dir_all(d.path().join("b")).unwrap();
        std::fs::write(d.path().join("b/guard"), b"x").unwrap();
        let (a, b) = (
            WarmDir::key(&d.path().join("a/guard")),
            WarmDir::key(&d.path().join("b/guard")),
        );
        assert!(a.starts_with("guard-") && b.starts_with("guard-"), "{a} {b}");
        assert_ne!(a, b, "two paths, two directories");
        // The same file through another spelling of its path (`..`) is the same directory.
        assert_eq!(a, WarmDir::key(&d.path().join("b/../a/guard")));
        // Rewritten in place (an upgrade): the same directory.
        std::fs::write(d.path().join("a/guard"), b"a newer build").unwrap();
        assert_eq!(a, WarmDir::key(&d.path().join("a/guard")));
        assert!(WarmDir::key(Path::new("/x/we ird$name.exe")).starts_with("we_ird_name-"));
        let _ = std::fs::remove_dir_all(d.path());
    }

    #[test]
    fn the_last_install_removed_discards_the_directory() {
        let d = tmp("installs");
        assert_eq!(d.remove_install("a").unwrap(), None, "no list: not ours to judge");
        d.ensure_token().unwrap();
        d.write_config(free_port().unwrap(), None).unwrap();
        d.add_install("a").unwrap();
        d.add_install("b").unwrap();
        d.add_install("a").unwrap();
        assert_eq!(d.remove_install("a").unwrap(), Some(1));
        assert_eq!(d.remove_install("c").unwrap(), Some(1));
        assert_eq!(d.remove_install("b").unwrap(), Some(0));
        assert!(d.discard(&build_id()).unwrap(), "nothing answered: removed");
        assert!(!d.path().exists());
    }

    #[test]
    fn ensure_running_needs_a_configured_dir() {
        let d = tmp("unconfigured");
        assert_eq!(
            d.ensure_running(Path::new("/nonexistent"), Instant::now() + START_WAIT, None)
                .unwrap(),
            Ensured::NotConfigured
        );
    }

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 1 (short key) and 6 (a key longer than the block).
        let mac = hmac_sha256(&[0x0b; 20], &[b"Hi ", b"There"]);
        assert_eq!(
            crate::digest::hex(&mac),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        let mac = hmac_sha256(
            &[0xaa; 131],
            &[b"Test Using Larger Than Block-Size Key - Hash Key First"],
        );
        assert_eq!(
            crate::digest::hex(&mac),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert_ne!(bearer("t"), "t");
        assert_eq!(bearer("t").len(), 64);
    }

    /// A listener that records everything it receives and answers each request with `answer`
    /// (written in `pieces` bytes every `gap`).
    fn listener(answer: Vec<u8>, piece: usize, gap: Duration) -> (u16, std::sync::mpsc::Receiver<Vec<u8>>) {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for conn in l.incoming() {
                let Ok(mut s) = conn else { return };
                let answer = answer.clone();
                let tx = tx.clone();
                std::thread::spawn(move || {
                    let _ = s.set_read_timeout(Some(Duration::from_millis(300)));
                    let mut got = Vec::new();
                    let mut buf = [0u8; 4096];
                    while let Ok(n) = s.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        got.extend_from_slice(&buf[..n]);
                        if got.windows(4).any(|w| w == b"\r\n\r\n") {
                            break;
                        }
                    }
                    let _ = tx.send(got);
                    for chunk in answer.chunks(piece.max(1)) {
                        if s.write_all(chunk).is_err() {
                            return;
                        }
                        std::thread::sleep(gap);
                    }
                    // Whatever else the client sends.
                    let mut rest = Vec::new();
                    let _ = s.read_to_end(&mut rest);
                    let _ = tx.send(rest);
                });
            }
        });
        (port, rx)
    }

    fn pong_with(build: &str, proof: &str) -> Vec<u8> {
        let body = format!(
            r#"{{"agenthooks":"pong","version":"0.1.0","build":"{build}","pid":1,"port":1,"proof":"{proof}"}}"#
        );
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: keep-alive\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    #[test]
    fn an_impostor_is_detected_and_never_gets_the_token() {
        let d = tmp("impostor");
        let token = d.ensure_token().unwrap();
        for build in [build_id(), "0.1.0-1-1".to_owned(), String::new()] {
            let (port, seen) = listener(pong_with(&build, &"0".repeat(64)), usize::MAX, Duration::ZERO);
            d.write_config(port, Some(&build_id())).unwrap();
            let deadline = Instant::now() + Duration::from_secs(2);
            match d.probe(port, &token, deadline) {
                Probe::Impostor(i) => {
                    assert_eq!(i.port, port);
                    assert!(i.why.contains("challenge"), "{i}");
                    #[cfg(target_os = "linux")]
                    assert!(i.uid.is_some(), "the socket owner is named: {i}");
                }
                other => panic!("not detected: {other:?}"),
            }
            let exe = Path::new("/nonexistent/hook");
            let ensured = d
                .ensure_running(exe, Instant::now() + Duration::from_secs(2), Some("s1"))
                .unwrap();
            assert!(matches!(ensured, Ensured::Impostor(_)), "{ensured:?}");
            assert!(!d.retire(port, &token, &build_id(), Instant::now() + Duration::from_secs(1)));
            std::thread::sleep(Duration::from_millis(400));
            let got: Vec<u8> = seen.try_iter().flatten().collect();
            let got = String::from_utf8_lossy(&got);
            assert!(got.contains("POST /v1/ping"), "{got}");
            assert!(!got.contains(&token), "the token reached the impostor: {got}");
            assert!(!got.contains(&bearer(&token)), "the bearer reached the impostor: {got}");
            assert!(!got.contains("/v1/retire") && !got.contains("/v1/session"), "{got}");
        }
        let _ = std::fs::remove_dir_all(d.path());
    }

    #[test]
    fn dripping_and_oversized_listeners_cannot_hold_the_client_past_its_deadline() {
        let d = tmp("drip");
        let token = d.ensure_token().unwrap();
        // One byte every 100 ms of a valid-looking answer; a head that never ends; a body
        // far over the cap.
        let endless_head = {
            let mut h = b"HTTP/1.1 200 OK\r\n".to_vec();
            h.extend(std::iter::repeat_n(b'x', 4 << 20));
            h
        };
        let huge_body = b"HTTP/1.1 200 OK\r\nContent-Length: 314572800\r\n\r\n"
            .iter()
            .copied()
            .chain(std::iter::repeat_n(b'{', 1 << 20))
            .collect::<Vec<u8>>();
        for (answer, piece, gap) in [
            (pong_with(&build_id(), "00"), 1, Duration::from_millis(100)),
            (endless_head, 64 << 10, Duration::ZERO),
            (huge_body, 64 << 10, Duration::ZERO),
        ] {
            let (port, _seen) = listener(answer, piece, gap);
            let started = Instant::now();
            let p = d.probe(port, &token, started + Duration::from_millis(700));
            let took = started.elapsed();
            assert!(matches!(p, Probe::Impostor(_)), "{p:?}");
            assert!(took < Duration::from_millis(1200), "held {took:?}");
        }
        let _ = std::fs::remove_dir_all(d.path());
    }

    #[test]
    fn our_server_proves_itself_and_only_a_newer_build_retires_it() {
        use crate::warm::{Stopped, WarmConfig, WarmServer};
        let d = tmp("ours");
        let token = d.ensure_token().unwrap();
        let ours = "0.1.0-10-6500";
        let server = WarmServer::bind(0, WarmConfig::new(token.clone(), ours).with_idle_exit(None)).unwrap();
        let port = server.port();
        let exe = std::env::current_exe().unwrap();
        d.write_record(&ServerRecord::new(std::process::id(), port, ours).with_exe(exe.to_string_lossy()))
            .unwrap();
        let handle = std::thread::spawn(move || {
            let runner = crate::Runner::new(crate::Router::new(), Vec::new());
            let env: Vec<(String, String)> = Vec::new();
            server.serve(&runner, &env)
        });
        let deadline = || Instant::now() + Duration::from_secs(3);
        match d.probe(port, &token, deadline()) {
            Probe::Ours(v) => assert_eq!((v.record.port, v.record.build.as_str()), (port, ours)),
            other => panic!("not verified: {other:?}"),
        }
        // Another token: the proof does not match.
        assert!(matches!(d.probe(port, "another", deadline()), Probe::Impostor(_)));
        #[cfg(target_os = "linux")]
        {
            // A record naming another process: not the listener.
            d.write_record(&ServerRecord::new(1, port, ours).with_exe(exe.to_string_lossy()))
                .unwrap();
            assert!(matches!(d.probe(port, &token, deadline()), Probe::Impostor(_)));
            d.write_record(&ServerRecord::new(std::process::id(), port, ours).with_exe("/bin/true"))
                .unwrap();
            assert!(matches!(d.probe(port, &token, deadline()), Probe::Impostor(_)));
            d.write_record(&ServerRecord::new(std::process::id(), port, ours).with_exe(exe.to_string_lossy()))
                .unwrap();
        }
        // An older build, or the bearer, does not retire it; the token and a newer build do.
        assert!(!d.retire(port, &token, "0.1.0-10-6400", deadline()));
        assert!(matches!(d.probe(port, &token, deadline()), Probe::Ours(_)));
        let Probe::Ours(mut v) = d.probe(port, &token, deadline()) else {
            panic!("not verified")
        };
        v.token = bearer(&token);
        assert_eq!(
            v.post("/v1/retire", &serde_json::json!({"build": "9.0.0-1-ffff"}))
                .unwrap()
                .status,
            401
        );
        assert!(d.retire(port, &token, "0.1.0-10-6600", deadline()));
        assert_eq!(handle.join().unwrap(), Stopped::Retired);
        let _ = std::fs::remove_dir_all(d.path());
    }
}
