//! MCP attribution: which configured server (and transport) an [`McpCall`] went to.
//!
//! A payload names an MCP tool the way its agent mangles it (`mcp__s__t`, `mcp_s_t`,
//! `MCP:t`, `<s>_<t>`, `<s>__<t>`); the server's real name and its transport (`url`, or
//! `command` + `args` for stdio) live in the agent's MCP configuration files. This module is
//! the provider-neutral half of reading them:
//!
//! - [`McpServer`] / [`McpServers`]: one configured server, and the servers an agent would load
//!   in a directory, after its precedence rules (a later [`McpServers::insert`] of a name
//!   replaces the earlier one, so loaders insert from lowest to highest precedence).
//! - [`McpScope`]: where a loader looks: the project root, the home directory and the
//!   environment (the process's by default; explicit ones for tests and `--root`).
//! - [`McpLoader`]: the provider's reader, `fn(&McpScope) -> McpServers`. Each provider crate
//!   has one (`agenthooks_<p>::mcp_config::load`) and returns it from
//!   [`Codec::mcp_loader`](crate::Codec::mcp_loader).
//! - Parsing primitives: [`read_json`] (strict or relaxed — comments, trailing commas, JSON5
//!   keys and quotes), [`McpServer::from_json`] (the `command`/`args`/`url`/`type` entry most
//!   agents share), [`expand_vars`] (`${VAR}`, `${VAR:-default}`, `$VAR` per agent).
//!
//! # The seam
//!
//! Core cannot depend on provider crates, so the codec hands the knowledge over in the event:
//! its `parse_mcp` attaches an [`McpLookup`] to the [`McpCall`] — the provider's loader, and how
//! the payload names the server ([`McpName`]: exactly, mangled under a [`Mangling`], or not at
//! all). [`ToolCallBuilder::build`](crate::ToolCallBuilder::build) fills in the root (the first
//! workspace root, else the session's `cwd`). Nothing is read at decode time: a handler that
//! calls [`McpCall::resolve`] triggers the read, and the servers of one `(provider, scope)` are
//! read once per process ([`load_cached`], a `OnceLock`'d map). A missing file is silently
//! absent; an unreadable or malformed one is logged (`tracing` warn) and skipped — a miss,
//! never an error.
//!
//! Mangled names resolve against the configured names, so an underscore inside a server name
//! cannot split wrongly: the longest configured server whose mangled prefix fits wins
//! (`mcp__my_server__tool` with a server `my_server`; `<s>_<t>` forms are ambiguous by nature).
//! The payload's own server info wins where the agent sends it (Gemini's `mcp_context`,
//! Cursor's `mcp_server_name`/`url`/`command`, Claude's `mcp_server.name`).
//!
//! ```
//! use agenthooks_core::mcp::{Mangling, McpLookup, McpName, McpScope, McpServer, McpServers, McpTransport};
//! use agenthooks_core::McpCall;
//! use serde_json::json;
//!
//! fn load(scope: &McpScope) -> McpServers {
//!     let mut s = McpServers::default();
//!     let entry = json!({"command": "npx", "args": ["-y", "srv"]});
//!     s.insert(McpServer::from_json("my_server", &entry, &scope.root.join("mcp.json"), &|v| v.to_owned()).unwrap());
//!     s
//! }
//! const M: Mangling = Mangling::new("mcp__", "__", |s| s.to_owned());
//! let call = McpCall::new("my", "server__create")
//!     .with_lookup(McpLookup::new("doc", load, McpName::Mangled("mcp__my_server__create".into(), M)));
//! let r = call.resolve_in(&McpScope::new("/p")).unwrap();
//! assert_eq!((r.server.name.as_str(), r.tool.as_str()), ("my_server", "create"));
//! assert_eq!((r.server.transport, r.server.command.as_str()), (McpTransport::Stdio, "npx"));
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;
use serde_json::{Map, Value};

/// An MCP tool call, decoded from the provider's naming scheme and context.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct McpCall {
    /// Server name ("" if undecodable).
    pub server: String,
    /// Tool name as the MCP server knows it.
    pub tool: String,
    /// Transport URL, when the agent reports one.
    pub url: String,
    /// Transport command, when the agent reports one.
    pub command: String,
    /// How to resolve the server from the agent's MCP configuration (set by the codec; see
    /// [`McpCall::resolve`] and [`crate::mcp`]).
    #[serde(skip)]
    pub(crate) lookup: Option<McpLookup>,
}

impl McpCall {
    /// Builds an MCP call from server and tool names.
    pub fn new(server: impl Into<String>, tool: impl Into<String>) -> Self {
        Self {
            server: server.into(),
            tool: tool.into(),
            ..Self::default()
        }
    }
}

/// How an MCP server is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum McpTransport {
    /// A local process on stdio (`command` + `args`).
    Stdio,
    /// Streamable HTTP (`url`).
    Http,
    /// Server-sent events (`url`).
    Sse,
    /// WebSocket / TCP (`url`).
    Ws,
    /// Not stated and not inferable.
    #[default]
    Unknown,
}

impl McpTransport {
    /// The stable name (`stdio`, `http`, `sse`, `ws`, `unknown`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stdio => "stdio",
            Self::Http => "http",
            Self::Sse => "sse",
            Self::Ws => "ws",
            Self::Unknown => "unknown",
        }
    }

    /// The transport a config's `type`/`transport` word names (`stdio`, `local`, `http`,
    /// `streamable-http`, `streamable_http`, `sse`, `ws`, `websocket`, `tcp`); OpenCode's
    /// `remote` names none (the URL decides, [`McpTransport::from_url`]).
    pub fn from_word(word: &str) -> Option<Self> {
        Some(match word.to_ascii_lowercase().as_str() {
            "stdio" | "local" => Self::Stdio,
            "http" | "streamable-http" | "streamable_http" | "streamablehttp" => Self::Http,
            "sse" => Self::Sse,
            "ws" | "websocket" | "tcp" => Self::Ws,
            _ => return None,
        })
    }

    /// The transport a bare URL implies: `ws://`/`wss://` is [`McpTransport::Ws`], a path ending
    /// in `/sse` is [`McpTransport::Sse`], anything else [`McpTransport::Http`].
    pub fn from_url(url: &str) -> Self {
        let lower = url.to_ascii_lowercase();
        if lower.starts_with("ws://") || lower.starts_with("wss://") {
            Self::Ws
        } else if lower.trim_end_matches('/').ends_with("/sse") {
            Self::Sse
        } else {
            Self::Http
        }
    }
}

impl fmt::Display for McpTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One configured MCP server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct McpServer {
    /// The server's configured name (the key in the agent's config).
    pub name: String,
    /// How it is reached.
    pub transport: McpTransport,
    /// The URL of a remote server ("" for stdio).
    pub url: String,
    /// The command of a stdio server ("" for remote).
    pub command: String,
    /// The command's arguments.
    pub args: Vec<String>,
    /// Whether the agent would start it (`false` for a definition kept but disabled).
    pub enabled: bool,
    /// The config file it came from (empty when only the payload described it).
    pub source: PathBuf,
}

impl McpServer {
    /// A server with a name, no transport yet, enabled, from `source`.
    pub fn new(name: impl Into<String>, source: impl Into<PathBuf>) -> Self {
        Self {
            name: name.into(),
            transport: McpTransport::Unknown,
            url: String::new(),
            command: String::new(),
            args: Vec::new(),
            enabled: true,
            source: source.into(),
        }
    }

    /// Reads the entry shape most agents share: `command` (a string, or an array whose first
    /// word is the command — OpenCode), `args`, `url` / `httpUrl` / `serverUrl` / `tcp`,
    /// `type` / `transport` ([`McpTransport::from_word`]), `enabled: false` / `disabled: true`.
    /// `expand` rewrites each string the agent expands (`command`, `args`, `url`). `None` for a
    /// non-object entry.
    ///
    /// ```
    /// use agenthooks_core::mcp::{McpServer, McpTransport};
    /// let s = McpServer::from_json("gh", &serde_json::json!({"httpUrl": "https://x/mcp"}), "f".as_ref(), &|v| v.to_owned()).unwrap();
    /// assert_eq!((s.transport, s.url.as_str()), (McpTransport::Http, "https://x/mcp"));
    /// ```
    pub fn from_json(name: &str, entry: &Value, source: &Path, expand: &dyn Fn(&str) -> String) -> Option<Self> {
        let obj = entry.as_object()?;
        let mut s = Self::new(name, source);
        let text = |k: &str| obj.get(k).and_then(Value::as_str).map(expand);
        let words = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).map(expand).collect())
                .unwrap_or_default()
        };
        match obj.get("command") {
            Some(Value::String(c)) => {
                s.command = expand(c);
                s.args = words(obj.get("args"));
            }
            Some(Value::Array(_)) => {
                let mut all = words(obj.get("command"));
                if !all.is_empty() {
                    s.command = all.remove(0);
                }
                all.extend(words(obj.get("args")));
                s.args = all;
            }
            _ => {}
        }
        let declared = ["type", "transport"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_str))
            .and_then(McpTransport::from_word);
        if declared == Some(McpTransport::Stdio) && !s.command.is_empty() {
            // A local server that also carries a (merged-in) URL: the declared type decides.
            s.transport = McpTransport::Stdio;
        } else if let Some(u) = text("httpUrl") {
            s.url = u;
            s.transport = McpTransport::Http;
        } else if let Some(u) = text("url").or_else(|| text("serverUrl")) {
            s.transport = declared
                .filter(|t| *t != McpTransport::Stdio)
                .unwrap_or(McpTransport::from_url(&u));
            s.url = u;
        } else if let Some(u) = text("tcp") {
            s.url = u;
            s.transport = McpTransport::Ws;
        } else if !s.command.is_empty() {
            s.transport = McpTransport::Stdio;
        } else if let Some(t) = declared {
            s.transport = t;
        }
        if obj.get("enabled").and_then(Value::as_bool) == Some(false)
            || obj.get("disabled").and_then(Value::as_bool) == Some(true)
        {
            s.enabled = false;
        }
        Some(s)
    }

    /// The stdio launch line: the command and its arguments joined by spaces.
    pub fn command_line(&self) -> String {
        std::iter::once(self.command.as_str())
            .chain(self.args.iter().map(String::as_str))
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The JSON line `agenthooks mcp` prints: `name`, `transport`, `url` or `command` + `args`,
    /// `enabled`, `source`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("name".into(), self.name.clone().into());
        m.insert("transport".into(), self.transport.as_str().into());
        if self.url.is_empty() {
            m.insert("command".into(), self.command.clone().into());
            m.insert("args".into(), self.args.clone().into());
        } else {
            m.insert("url".into(), self.url.clone().into());
        }
        m.insert("enabled".into(), self.enabled.into());
        m.insert("source".into(), self.source.display().to_string().into());
        Value::Object(m)
    }
}

/// The MCP servers an agent would load, unique by name, in first-declared order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpServers(Vec<McpServer>);

impl McpServers {
    /// Adds a server; one of the same name is replaced in place (the later source wins).
    pub fn insert(&mut self, server: McpServer) {
        match self.0.iter_mut().find(|s| s.name == server.name) {
            Some(slot) => *slot = server,
            None => self.0.push(server),
        }
    }

    /// Inserts every entry of an `{ name: entry }` map read by [`McpServer::from_json`].
    pub fn insert_map(&mut self, map: Option<&Value>, source: &Path, expand: &dyn Fn(&str) -> String) {
        let Some(map) = map.and_then(Value::as_object) else {
            return;
        };
        for (name, entry) in map {
            match McpServer::from_json(name, entry, source, expand) {
                Some(s) => self.insert(s),
                None => {
                    tracing::warn!(path = %source.display(), server = %name, "MCP server entry is not an object; skipped");
                }
            }
        }
    }

    /// Reads JSON config files from lowest to highest precedence and inserts the server map
    /// at `key` (a path of object keys, `["mcpServers"]`) of each; absent and malformed files
    /// are skipped ([`read_json`]). Returns the files that parsed.
    pub fn insert_files(
        &mut self,
        files: impl IntoIterator<Item = PathBuf>,
        syntax: JsonSyntax,
        key: &[&str],
        expand: &dyn Fn(&str) -> String,
    ) -> Vec<PathBuf> {
        let mut read = Vec::new();
        for file in files {
            let Some(doc) = read_json(&file, syntax) else { continue };
            let map = key.iter().try_fold(&doc, |v, k| v.get(*k));
            self.insert_map(map, &file, expand);
            read.push(file);
        }
        read
    }

    /// Inserts the server maps of config layers (lowest precedence first) merged key by key
    /// ([`merge_deep`], as agents with layered configs do: Codex, OpenCode); a server's source
    /// is the last layer that declares it.
    pub fn insert_layers(&mut self, layers: impl IntoIterator<Item = (PathBuf, Map<String, Value>)>) {
        let mut merged: Vec<(String, Value, PathBuf)> = Vec::new();
        for (file, servers) in layers {
            for (name, entry) in servers {
                match merged.iter_mut().find(|(n, _, _)| *n == name) {
                    Some((_, v, src)) => {
                        merge_deep(v, entry);
                        src.clone_from(&file);
                    }
                    None => merged.push((name, entry, file.clone())),
                }
            }
        }
        for (name, entry, src) in merged {
            self.insert_map(Some(&Value::Object(Map::from_iter([(name, entry)]))), &src, &|v| {
                v.to_owned()
            });
        }
    }

    /// The servers of layered config files (lowest precedence first): each file's text is
    /// turned into JSON by `parse` (a failure is a logged miss), and the object under `key`
    /// is merged in by [`McpServers::insert_layers`].
    pub fn from_layers<E: fmt::Display>(
        files: impl IntoIterator<Item = PathBuf>,
        parse: &dyn Fn(&str) -> Result<Value, E>,
        key: &str,
    ) -> Self {
        let layers = files.into_iter().filter_map(|file| {
            let doc = parse(&read_text(&file)?);
            match doc {
                Ok(Value::Object(mut doc)) => match doc.remove(key) {
                    Some(Value::Object(servers)) => Some((file, servers)),
                    _ => None,
                },
                Ok(_) => None,
                Err(e) => {
                    tracing::warn!(path = %file.display(), error = %e, "malformed MCP config; skipped");
                    None
                }
            }
        });
        let mut out = Self::default();
        out.insert_layers(layers);
        out
    }

    /// Marks a server disabled (an agent's disabled-by-name list).
    pub fn disable(&mut self, name: &str) {
        if let Some(s) = self.0.iter_mut().find(|s| s.name == name) {
            s.enabled = false;
        }
    }

    /// The server of a name.
    pub fn get(&self, name: &str) -> Option<&McpServer> {
        self.0.iter().find(|s| s.name == name)
    }

    /// Every server.
    pub fn iter(&self) -> std::slice::Iter<'_, McpServer> {
        self.0.iter()
    }

    /// How many servers.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The server a payload name designates, and the tool's name on it: an exact name; the
    /// longest server whose mangled prefix fits (with a non-empty tool after it); or, for a
    /// payload without a server, the only enabled server ([`McpCall::resolve`] first matches
    /// such a payload's own `url` or `command` against the servers).
    ///
    /// ```
    /// use agenthooks_core::mcp::{Mangling, McpName, McpServer, McpServers};
    /// let mut s = McpServers::default();
    /// s.insert(McpServer::new("my", "f"));
    /// s.insert(McpServer::new("my_server", "f"));
    /// const G: Mangling = Mangling::new("mcp_", "_", |s| s.to_owned());
    /// let (srv, tool) = s.find(&McpName::Mangled("mcp_my_server_run".into(), G), "").unwrap();
    /// assert_eq!((srv.name.as_str(), tool.as_str()), ("my_server", "run"));
    /// assert!(s.find(&McpName::Unnamed, "run").is_none()); // two servers: no guess
    /// ```
    pub fn find(&self, name: &McpName, tool: &str) -> Option<(&McpServer, String)> {
        match name {
            McpName::Server(n) => self.get(n).map(|s| (s, tool.to_owned())),
            McpName::Mangled(full, m) => self
                .0
                .iter()
                .filter_map(|s| {
                    let rest = full
                        .strip_prefix(m.prefix)?
                        .strip_prefix((m.sanitize)(&s.name).as_str())?
                        .strip_prefix(m.separator)?;
                    (!rest.is_empty()).then(|| (s, rest.to_owned()))
                })
                .max_by_key(|(s, _)| (m.sanitize)(&s.name).len()),
            McpName::Unnamed => {
                let mut enabled = self.0.iter().filter(|s| s.enabled);
                match (enabled.next(), enabled.next()) {
                    (Some(s), None) => Some((s, tool.to_owned())),
                    _ => None,
                }
            }
        }
    }
}

impl<'a> IntoIterator for &'a McpServers {
    type Item = &'a McpServer;
    type IntoIter = std::slice::Iter<'a, McpServer>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Where a loader looks: the project root, the home directory, the environment.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct McpScope {
    /// The project (workspace) root.
    pub root: PathBuf,
    /// The home directory; `None`: `$HOME` from [`McpScope::var`].
    pub home: Option<PathBuf>,
    /// The environment; `None`: the process's.
    pub env: Option<BTreeMap<String, String>>,
}

impl McpScope {
    /// The scope of a root, with the process's home and environment.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            home: None,
            env: None,
        }
    }

    /// With an explicit home directory.
    #[must_use]
    pub fn with_home(mut self, home: impl Into<PathBuf>) -> Self {
        self.home = Some(home.into());
        self
    }

    /// With an explicit environment (nothing from the process's).
    #[must_use]
    pub fn with_env<K: Into<String>, V: Into<String>>(mut self, vars: impl IntoIterator<Item = (K, V)>) -> Self {
        self.env = Some(vars.into_iter().map(|(k, v)| (k.into(), v.into())).collect());
        self
    }

    /// A variable of the scope's environment (empty values count as unset).
    pub fn var(&self, name: &str) -> Option<String> {
        match &self.env {
            Some(m) => m.get(name).cloned(),
            None => std::env::var(name).ok(),
        }
        .filter(|v| !v.is_empty())
    }

    /// The home directory.
    pub fn home(&self) -> Option<PathBuf> {
        self.home.clone().or_else(|| self.var("HOME").map(PathBuf::from))
    }

    /// A directory an env var overrides: `$var`, else `<home>/<default>`.
    ///
    /// ```
    /// use agenthooks_core::mcp::McpScope;
    /// let s = McpScope::new("/p").with_home("/h").with_env([("CODEX_HOME", "/c")]);
    /// assert_eq!(s.dir_from_env("CODEX_HOME", ".codex").unwrap(), std::path::Path::new("/c"));
    /// assert_eq!(s.dir_from_env("NOPE", ".codex").unwrap(), std::path::Path::new("/h/.codex"));
    /// ```
    pub fn dir_from_env(&self, var: &str, default: &str) -> Option<PathBuf> {
        match self.var(var) {
            Some(v) => Some(PathBuf::from(v)),
            None => self.home().map(|h| h.join(default)),
        }
    }

    /// A variable as the scope's expansion lookup.
    pub fn lookup(&self) -> impl Fn(&str) -> Option<String> + '_ {
        move |k| self.var(k)
    }
}

/// The settings files of the Gemini CLI family (Gemini CLI and its fork Qwen Code), lowest
/// precedence first: the system defaults (`$<defaults_var>`, else `system-defaults.json` next to
/// the system file), the `user` file, the `workspace` file (not when it is the user file), and
/// the system file (`$<system_var>`, else `system_default`). Each agent names its variables and
/// resolves its own user and workspace files.
///
/// ```
/// use agenthooks_core::mcp::{layered_settings_files, McpScope};
/// use std::path::{Path, PathBuf};
/// let scope = McpScope::new("/p").with_home("/h").with_env([("X_SYSTEM", "/etc/x.json")]);
/// let files = layered_settings_files(
///     &scope,
///     ("X_SYSTEM", "/etc/x/settings.json"),
///     "X_DEFAULTS",
///     Some(Path::new("/h/.x/settings.json")),
///     PathBuf::from("/p/.x/settings.json"),
/// );
/// let want = ["/etc/system-defaults.json", "/h/.x/settings.json", "/p/.x/settings.json", "/etc/x.json"];
/// assert_eq!(files, want.map(PathBuf::from));
/// ```
pub fn layered_settings_files(
    scope: &McpScope,
    (system_var, system_default): (&str, &str),
    defaults_var: &str,
    user: Option<&Path>,
    workspace: PathBuf,
) -> Vec<PathBuf> {
    let system = scope
        .var(system_var)
        .map_or_else(|| PathBuf::from(system_default), PathBuf::from);
    let defaults = scope
        .var(defaults_var)
        .map_or_else(|| system.with_file_name("system-defaults.json"), PathBuf::from);
    let mut files = vec![defaults];
    files.extend(user.map(Path::to_path_buf));
    if user != Some(workspace.as_path()) {
        files.push(workspace);
    }
    files.push(system);
    files
}

/// The servers of the `mcpServers` of settings `files` (lowest precedence first; JSONC; `$VAR`,
/// `${VAR}` and `${VAR:-default}` expanded from the scope in every string; a later file's
/// server replaces an earlier one of the same name): the Gemini CLI family's loader.
///
/// ```
/// use agenthooks_core::mcp::{load_settings_servers, McpScope};
/// let servers = load_settings_servers(&McpScope::new("/nowhere"), vec!["/nowhere/settings.json".into()]);
/// assert!(servers.is_empty());
/// ```
pub fn load_settings_servers(scope: &McpScope, files: Vec<PathBuf>) -> McpServers {
    let lookup = scope.lookup();
    let expand = |s: &str| expand_vars(s, VarSyntax::SHELL, &lookup);
    let mut out = McpServers::default();
    out.insert_files(files, JsonSyntax::Relaxed, &["mcpServers"], &expand);
    out
}

/// A provider's MCP config reader: the servers it would load in a scope, after its precedence
/// rules.
pub type McpLoader = fn(&McpScope) -> McpServers;

/// How an agent mangles a server name into a tool name: `<prefix><sanitize(server)><separator>
/// <tool>`.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Mangling {
    /// The fixed prefix (`mcp__`, `mcp_`, or "").
    pub prefix: &'static str,
    /// Between server and tool (`__`, `_`, `-`).
    pub separator: &'static str,
    /// The agent's rewrite of a configured server name (characters it does not allow).
    pub sanitize: fn(&str) -> String,
}

impl Mangling {
    /// A scheme.
    pub const fn new(prefix: &'static str, separator: &'static str, sanitize: fn(&str) -> String) -> Self {
        Self {
            prefix,
            separator,
            sanitize,
        }
    }
}

impl fmt::Debug for Mangling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Mangling({:?}<server>{:?}<tool>)", self.prefix, self.separator)
    }
}

impl PartialEq for Mangling {
    fn eq(&self, other: &Self) -> bool {
        self.prefix == other.prefix && self.separator == other.separator
    }
}

impl Eq for Mangling {}

/// Replaces every character outside `[A-Za-z0-9_-]` with `replacement` (the rule most agents
/// apply to server names in tool names).
///
/// ```
/// assert_eq!(agenthooks_core::mcp::replace_unsafe("my.docs srv", '_'), "my_docs_srv");
/// ```
pub fn replace_unsafe(name: &str, replacement: char) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                replacement
            }
        })
        .collect()
}

/// How a payload names an MCP call's server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpName {
    /// The configured name itself (the payload said so).
    Server(String),
    /// A mangled tool name (the full native name) under a scheme.
    Mangled(String, Mangling),
    /// The payload names no server (Cursor's `MCP:<tool>`).
    Unnamed,
}

/// What the codec hands over for lazy resolution: the provider, its loader, the root, and how
/// the payload names the server.
#[derive(Clone)]
pub struct McpLookup(Arc<Lookup>);

struct Lookup {
    provider: &'static str,
    loader: McpLoader,
    root: PathBuf,
    name: McpName,
}

impl McpLookup {
    /// A lookup without a root yet ([`ToolCallBuilder::build`](crate::ToolCallBuilder::build)
    /// sets the session's).
    pub fn new(provider: &'static str, loader: McpLoader, name: McpName) -> Self {
        Self(Arc::new(Lookup {
            provider,
            loader,
            root: PathBuf::new(),
            name,
        }))
    }

    /// A lookup by a mangled tool name (the common case).
    pub fn mangled(provider: &'static str, loader: McpLoader, tool_name: &str, scheme: Mangling) -> Self {
        Self::new(provider, loader, McpName::Mangled(tool_name.to_owned(), scheme))
    }

    /// With a root (kept when one is set already unless `force`).
    #[must_use]
    pub fn rooted(self, root: &str, force: bool) -> Self {
        if root.is_empty() || (!force && !self.0.root.as_os_str().is_empty()) {
            return self;
        }
        Self(Arc::new(Lookup {
            provider: self.0.provider,
            loader: self.0.loader,
            root: PathBuf::from(root),
            name: self.0.name.clone(),
        }))
    }

    /// The provider.
    pub fn provider(&self) -> &'static str {
        self.0.provider
    }

    /// The root the call ran in (empty when unknown).
    pub fn root(&self) -> &Path {
        &self.0.root
    }

    /// How the payload names the server.
    pub fn name(&self) -> &McpName {
        &self.0.name
    }

    /// The servers of a scope (cached per process).
    pub fn servers(&self, scope: &McpScope) -> Arc<McpServers> {
        load_cached(self.0.provider, self.0.loader, scope)
    }
}

impl fmt::Debug for McpLookup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpLookup")
            .field("provider", &self.0.provider)
            .field("root", &self.0.root)
            .field("name", &self.0.name)
            .finish_non_exhaustive()
    }
}

impl PartialEq for McpLookup {
    fn eq(&self, other: &Self) -> bool {
        self.0.provider == other.0.provider && self.0.root == other.0.root && self.0.name == other.0.name
    }
}

impl Eq for McpLookup {}

/// An MCP call attributed to a configured server: the server (transport from the config,
/// overridden by what the payload itself reported) and the tool's name on it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ResolvedMcp {
    /// The server.
    pub server: McpServer,
    /// The tool as the server knows it.
    pub tool: String,
}

type Cache = Mutex<HashMap<(&'static str, McpScope), Arc<McpServers>>>;

/// The servers `loader` reads for a scope, read once per process per `(provider, scope)`.
pub fn load_cached(provider: &'static str, loader: McpLoader, scope: &McpScope) -> Arc<McpServers> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let key = (provider, scope.clone());
    if let Some(hit) = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&key)
    {
        return Arc::clone(hit);
    }
    // Read outside the lock: loaders touch the disk.
    let servers = Arc::new(loader(scope));
    tracing::debug!(provider, root = %scope.root.display(), servers = servers.len(), "MCP config read");
    let mut guard = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    Arc::clone(guard.entry(key).or_insert(servers))
}

impl McpCall {
    /// Attaches the codec's lookup (see the [module docs](crate::mcp)).
    #[must_use]
    pub fn with_lookup(mut self, lookup: McpLookup) -> Self {
        self.lookup = Some(lookup);
        self
    }

    /// The codec's lookup, when it attached one.
    pub fn lookup(&self) -> Option<&McpLookup> {
        self.lookup.as_ref()
    }

    /// Sets the lookup's root when it has none (the session's workspace root or `cwd`).
    #[must_use]
    pub fn rooted(mut self, root: &str) -> Self {
        self.lookup = self.lookup.map(|l| l.rooted(root, false));
        self
    }

    /// The server and transport this call went to, from the agent's MCP configuration in the
    /// call's root with the process's home and environment (read once per process). `None`
    /// when the codec attached no lookup, or neither the configuration nor the payload names
    /// the server. A call whose session named no directory resolves in the process's current
    /// directory.
    pub fn resolve(&self) -> Option<ResolvedMcp> {
        let root = self.lookup.as_ref().map(|l| l.root().to_owned()).unwrap_or_default();
        self.resolve_in(&McpScope::new(root))
    }

    /// [`McpCall::resolve`] in an explicit scope (another root, home or environment).
    pub fn resolve_in(&self, scope: &McpScope) -> Option<ResolvedMcp> {
        let lookup = self.lookup.as_ref()?;
        let servers = lookup.servers(scope);
        let by_transport = || {
            // A payload without a server name but with a transport: the server it matches.
            let mut same = servers.iter().filter(|s| {
                (!self.url.is_empty() && s.url == self.url)
                    || (!self.command.is_empty() && s.command_line() == self.command)
            });
            match (same.next(), same.next()) {
                (Some(s), None) => Some((s, self.tool.clone())),
                _ => None,
            }
        };
        let found = match lookup.name() {
            McpName::Unnamed => by_transport().or_else(|| servers.find(lookup.name(), &self.tool)),
            name => servers.find(name, &self.tool),
        };
        let (mut server, tool) = match found {
            Some((s, tool)) => (s.clone(), tool),
            // The payload alone: a server name it reported, without a config entry.
            None if !self.server.is_empty() && matches!(lookup.name(), McpName::Server(_)) => {
                (McpServer::new(self.server.clone(), PathBuf::new()), self.tool.clone())
            }
            None => return None,
        };
        // The payload's own transport wins.
        if !self.url.is_empty() {
            if server.url != self.url {
                server.transport = McpTransport::from_url(&self.url);
            }
            server.url.clone_from(&self.url);
            server.command.clear();
            server.args.clear();
        } else if !self.command.is_empty() && server.command_line() != self.command {
            server.transport = McpTransport::Stdio;
            server.command.clone_from(&self.command);
            server.args.clear();
            server.url.clear();
        }
        Some(ResolvedMcp { server, tool })
    }
}

/// JSON dialects of config files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonSyntax {
    /// RFC 8259 (the agent uses `JSON.parse`).
    Strict,
    /// JSONC / JSON5-lite: `//` and `/* */` comments, trailing commas, unquoted keys,
    /// single-quoted strings.
    Relaxed,
}

/// Reads a JSON config file: `None` when absent (silently) or unreadable / malformed (logged
/// as a warning: a miss, not an error).
pub fn read_json(path: &Path, syntax: JsonSyntax) -> Option<Value> {
    let text = read_text(path)?;
    let parsed = match syntax {
        JsonSyntax::Strict => serde_json::from_str(text.trim_start_matches('\u{feff}')),
        JsonSyntax::Relaxed => relaxed_json(&text),
    };
    match parsed {
        Ok(v) => Some(v),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "malformed MCP config; skipped");
            None
        }
    }
}

/// The largest MCP config file that is read: 4 MiB (agents' configs are kilobytes; a larger
/// file is skipped, logged).
pub const CONFIG_CAP: u64 = 4 << 20;

/// Reads a config file's text: `None` when absent (silently) or unreadable (logged). Only a
/// regular file of at most [`CONFIG_CAP`] bytes is read, opened without blocking: a FIFO or a
/// device in its place is skipped at once, never waited on.
pub fn read_text(path: &Path) -> Option<String> {
    let read = crate::safe_fs::read_regular(path, CONFIG_CAP)
        .and_then(|b| String::from_utf8(b).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e)));
    match read {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "unreadable MCP config; skipped");
            None
        }
    }
}

/// Parses relaxed JSON ([`JsonSyntax::Relaxed`]) by rewriting it to strict JSON first.
///
/// ```
/// let v = agenthooks_core::mcp::relaxed_json("{mcp: {servers: {'a': {url: 'http://x',},},}, // c\n}").unwrap();
/// assert_eq!(v["mcp"]["servers"]["a"]["url"], "http://x");
/// ```
pub fn relaxed_json(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(&to_strict_json(text.trim_start_matches('\u{feff}')))
}

fn to_strict_json(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Drops a trailing comma before a closing bracket.
    let close = |out: &mut String, c: char| {
        let trimmed = out.trim_end().len();
        if out[..trimmed].ends_with(',') {
            out.truncate(trimmed - 1);
        }
        out.push(c);
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' | '\'' => {
                out.push('"');
                i += 1;
                while i < chars.len() && chars[i] != c {
                    match chars[i] {
                        '\\' if i + 1 < chars.len() => {
                            if chars[i + 1] == '\'' {
                                out.push('\'');
                            } else {
                                out.push('\\');
                                out.push(chars[i + 1]);
                            }
                            i += 2;
                            continue;
                        }
                        '"' => out.push_str("\\\""),
                        ch => out.push(ch),
                    }
                    i += 1;
                }
                out.push('"');
                i += 1;
            }
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i += 2;
            }
            '}' | ']' => {
                close(&mut out, c);
                i += 1;
            }
            c if c.is_alphabetic() || c == '_' || c == '$' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let mut j = i;
                while j < chars.len() && chars[j].is_whitespace() {
                    j += 1;
                }
                if chars.get(j) == Some(&':') {
                    out.push('"');
                    out.push_str(&word);
                    out.push('"');
                } else {
                    out.push_str(&word);
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Which `$` forms an agent expands in its MCP config strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
// Independent flags, one per `$` form an agent accepts; any combination occurs.
#[allow(clippy::struct_excessive_bools)]
pub struct VarSyntax {
    /// `$VAR` without braces (Gemini).
    pub bare: bool,
    /// `${VAR:-default}`.
    pub defaults: bool,
    /// Only `[A-Z_][A-Z0-9_]*` names (OpenClaw).
    pub uppercase_only: bool,
    /// `$${VAR}` is a literal `${VAR}` (OpenClaw).
    pub escape: bool,
}

impl VarSyntax {
    /// `${VAR}` and `${VAR:-default}` (Claude Code's `.mcp.json`).
    pub const BRACED_DEFAULTS: Self = Self {
        bare: false,
        defaults: true,
        uppercase_only: false,
        escape: false,
    };

    /// `$VAR`, `${VAR}` and `${VAR:-default}` (Gemini CLI's settings).
    pub const SHELL: Self = Self {
        bare: true,
        ..Self::BRACED_DEFAULTS
    };

    /// `${VAR}` with upper-case names only, `$${VAR}` a literal (OpenClaw's config).
    pub const UPPERCASE_ESCAPED: Self = Self {
        bare: false,
        defaults: false,
        uppercase_only: true,
        escape: true,
    };
}

/// Expands `${VAR}` (and the forms `syntax` enables) with `lookup`; an unset variable without
/// a default stays as written.
///
/// ```
/// use agenthooks_core::mcp::{expand_vars, VarSyntax};
/// let env = |k: &str| (k == "T").then(|| "tok".to_owned());
/// assert_eq!(expand_vars("a ${T} ${U:-d} ${U} $T", VarSyntax::BRACED_DEFAULTS, &env), "a tok d ${U} $T");
/// ```
pub fn expand_vars(s: &str, syntax: VarSyntax, lookup: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find('$') {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 1..];
        if syntax.escape && after.starts_with("${") {
            let end = after.find('}').map_or(after.len(), |e| e + 1);
            out.push_str(&after[..end]);
            rest = &after[end..];
            continue;
        }
        if let Some(body) = after.strip_prefix('{') {
            if let Some(end) = body.find('}') {
                let inner = &body[..end];
                let (name, default) = match inner.split_once(":-") {
                    Some((n, d)) if syntax.defaults => (n, Some(d)),
                    _ => (inner, None),
                };
                if valid_var(name, syntax.uppercase_only) {
                    match lookup(name).or_else(|| default.map(str::to_owned)) {
                        Some(v) => out.push_str(&v),
                        None => out.push_str(&rest[pos..=pos + 2 + end]),
                    }
                    rest = &body[end + 1..];
                    continue;
                }
            }
        } else if syntax.bare {
            let len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            let name = &after[..len];
            if valid_var(name, syntax.uppercase_only) {
                match lookup(name) {
                    Some(v) => out.push_str(&v),
                    None => out.push_str(&rest[pos..=pos + len]),
                }
                rest = &after[len..];
                continue;
            }
        }
        out.push('$');
        rest = after;
    }
    out.push_str(rest);
    out
}

fn valid_var(name: &str, uppercase_only: bool) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| {
        c == '_'
            || if uppercase_only {
                c.is_ascii_uppercase()
            } else {
                c.is_ascii_alphabetic()
            }
    });
    first_ok
        && chars.all(|c| {
            c == '_'
                || c.is_ascii_digit()
                || if uppercase_only {
                    c.is_ascii_uppercase()
                } else {
                    c.is_ascii_alphabetic()
                }
        })
}

/// Replaces every `<open>…}` token of `text` with `f(…)` (the text between); a token `f`
/// answers `None` for, or one without its `}`, stays as written.
///
/// ```
/// let out = agenthooks_core::mcp::replace_tokens("a ${x} ${y} ${z", "${", &|t| (t == "x").then(|| "1".to_owned()));
/// assert_eq!(out, "a 1 ${y} ${z");
/// ```
pub fn replace_tokens(text: &str, open: &str, f: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let token = &rest[start..=start + len];
        out.push_str(f(&token[open.len()..token.len() - 1]).as_deref().unwrap_or(token));
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// Merges `over` into `base` key by key, recursively for objects (later layers win; what
/// agents with layered configs do: OpenCode, Codex).
pub fn merge_deep(base: &mut Value, over: Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(&k) {
                    Some(slot) => merge_deep(slot, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (slot, v) => *slot = v,
    }
}

/// `dir` and its ancestors, farthest first (for agents where the closer file wins).
pub fn ancestors_rootfirst(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = dir.ancestors().map(Path::to_path_buf).collect();
    v.reverse();
    v
}

/// The nearest ancestor of `dir` (itself included) holding `.git`, when there is one.
pub fn git_root(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn id(s: &str) -> String {
        s.to_owned()
    }

    #[test]
    fn entry_shapes() {
        let f = Path::new("f");
        let s = McpServer::from_json(
            "o",
            &json!({"type": "local", "command": ["bun", "x.ts"], "enabled": false}),
            f,
            &id,
        )
        .unwrap();
        assert_eq!(
            (s.command.as_str(), s.args.clone(), s.enabled, s.transport),
            ("bun", vec!["x.ts".to_owned()], false, McpTransport::Stdio)
        );
        let s = McpServer::from_json("r", &json!({"url": "https://h/sse"}), f, &id).unwrap();
        assert_eq!(s.transport, McpTransport::Sse);
        let s = McpServer::from_json("r", &json!({"url": "https://h/mcp", "type": "sse"}), f, &id).unwrap();
        assert_eq!(s.transport, McpTransport::Sse);
        let s = McpServer::from_json("t", &json!({"tcp": "ws://h:1"}), f, &id).unwrap();
        assert_eq!((s.transport, s.url.as_str()), (McpTransport::Ws, "ws://h:1"));
        assert!(McpServer::from_json("x", &json!("nope"), f, &id).is_none());
        assert_eq!(s.to_json()["url"], "ws://h:1");
    }

    #[test]
    fn later_insert_wins_and_mangled_longest_prefix() {
        const C: Mangling = Mangling::new("mcp__", "__", |n| replace_unsafe(n, '_'));
        let mut s = McpServers::default();
        s.insert(McpServer::new("a", "user"));
        s.insert(McpServer::new("a_b", "user"));
        s.insert(McpServer::new("a", "project"));
        assert_eq!(s.len(), 2);
        assert_eq!(s.get("a").unwrap().source, Path::new("project"));
        let (srv, tool) = s.find(&McpName::Mangled("mcp__a_b__t__u".into(), C), "").unwrap();
        assert_eq!((srv.name.as_str(), tool.as_str()), ("a_b", "t__u"));
        assert!(s.find(&McpName::Mangled("mcp__zz__t".into(), C), "").is_none());
        assert!(s.find(&McpName::Mangled("mcp__a__".into(), C), "").is_none());
    }

    #[test]
    fn relaxed_json_keeps_strings_intact() {
        let v = relaxed_json(r#"{"u": "http://h//x", 'q': 'it\'s "x"', /* c */ k: [1, 2,], }"#).unwrap();
        assert_eq!(v, json!({"u": "http://h//x", "q": "it's \"x\"", "k": [1, 2]}));
        assert!(relaxed_json("{\"a\": }").is_err());
    }

    #[test]
    fn var_forms() {
        let env = |k: &str| match k {
            "A" => Some("1".to_owned()),
            "low" => Some("2".to_owned()),
            _ => None,
        };
        assert_eq!(
            expand_vars("$A-${A}-$B-${B:-x}-$", VarSyntax::SHELL, &env),
            "1-1-$B-x-$"
        );
        assert_eq!(
            expand_vars("${A} $${A} ${low}", VarSyntax::UPPERCASE_ESCAPED, &env),
            "1 ${A} ${low}"
        );
    }

    #[test]
    fn malformed_and_missing_files_are_misses() {
        let dir = std::env::temp_dir().join(format!("agenthooks-mcp-core-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.json");
        std::fs::write(&bad, "{ not json").unwrap();
        assert_eq!(read_json(&bad, JsonSyntax::Strict), None);
        assert_eq!(read_json(&bad, JsonSyntax::Relaxed), None);
        assert_eq!(read_json(&dir.join("absent.json"), JsonSyntax::Strict), None);
        std::fs::write(&bad, "{\"a\": 1 // c\n}").unwrap();
        assert_eq!(
            read_json(&bad, JsonSyntax::Strict),
            None,
            "comments are malformed for JSON.parse"
        );
        assert_eq!(read_json(&bad, JsonSyntax::Relaxed), Some(json!({"a": 1})));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A config path is read only when it is a regular file within the cap: a FIFO (which would
    /// block the open) or `/dev/zero` (endless) is skipped at once, an oversize file skipped.
    #[test]
    fn only_regular_files_within_the_cap_are_read() {
        let dir = std::env::temp_dir().join(format!("agenthooks-mcp-core-cap-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.json");
        let cap = usize::try_from(CONFIG_CAP).unwrap();
        let mut text = String::from("{\"mcpServers\": {}, \"pad\": \"");
        text.push_str(&"x".repeat(cap - text.len() - 2));
        text.push_str("\"}");
        std::fs::write(&big, &text).unwrap();
        assert_eq!(
            read_json(&big, JsonSyntax::Strict).map(|v| v["mcpServers"].clone()),
            Some(json!({}))
        );
        text.push(' ');
        std::fs::write(&big, &text).unwrap();
        assert_eq!(read_json(&big, JsonSyntax::Strict), None, "one byte over the cap");
        #[cfg(unix)]
        {
            let fifo = dir.join("fifo.json");
            let made = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .is_ok_and(|s| s.success());
            assert!(made);
            let started = std::time::Instant::now();
            assert_eq!(read_json(&fifo, JsonSyntax::Relaxed), None);
            assert_eq!(read_json(Path::new("/dev/zero"), JsonSyntax::Strict), None);
            assert!(started.elapsed() < std::time::Duration::from_secs(1));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn payload_transport_wins_and_cache_is_per_scope() {
        fn load(scope: &McpScope) -> McpServers {
            let mut s = McpServers::default();
            let mut a = McpServer::new("db", scope.root.join("cfg"));
            a.transport = McpTransport::Stdio;
            a.command = "node".into();
            a.args = vec!["db.js".into()];
            s.insert(a);
            s
        }
        let mut call = McpCall::new("db", "q").with_lookup(McpLookup::new("t", load, McpName::Server("db".into())));
        let r = call.resolve_in(&McpScope::new("/a")).unwrap();
        assert_eq!(
            (r.server.command_line().as_str(), r.server.source.as_path()),
            ("node db.js", Path::new("/a/cfg"))
        );
        call.url = "http://h/sse".into();
        let r = call.resolve_in(&McpScope::new("/a")).unwrap();
        assert_eq!(
            (r.server.transport, r.server.url.as_str(), r.server.command.as_str()),
            (McpTransport::Sse, "http://h/sse", "")
        );
        // Unknown to the config but named by the payload: the payload alone.
        let lone = McpCall::new("x", "q").with_lookup(McpLookup::new("t", load, McpName::Server("x".into())));
        assert_eq!(
            lone.resolve_in(&McpScope::new("/a")).unwrap().server.source,
            PathBuf::new()
        );
        // No lookup: nothing to resolve.
        assert_eq!(McpCall::new("db", "q").resolve(), None);
        let a = load_cached("t", load, &McpScope::new("/a"));
        assert!(Arc::ptr_eq(&a, &load_cached("t", load, &McpScope::new("/a"))));
        assert!(!Arc::ptr_eq(&a, &load_cached("t", load, &McpScope::new("/b"))));
    }
}
