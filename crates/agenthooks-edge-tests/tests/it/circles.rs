//! No import circle among a crate's files or between crates.
//!
//! The test reads every workspace crate's `src/**/*.rs` (following `mod` declarations from each
//! crate root: `src/lib.rs`, `src/main.rs`, `src/bin/*.rs`), and draws one arrow from a file to
//! another when the first names an item of the second:
//!
//! - `use crate::…`, `use super::…`, `use self::…` and `use child::…` trees (in any scope,
//!   function bodies included), and
//! - paths written inline: `crate::x::Y`, `$crate::x::Y`, `super::Y`, `self::x::Y`, `child::Y`.
//!
//! A path resolves to the file that *defines* the item: a name that a module re-exports
//! (`pub use codec::Codec` in `lib.rs`, or any other `use` in the module a path goes through)
//! is followed to its definition, so `crate::Codec` written in `kit.rs` is an arrow to
//! `codec.rs`, not to `lib.rs`. Glob imports (`use x::*`) are followed when the glob's module
//! defines the name; `#[macro_export]` macros resolve to the file that defines them.
//! A `mod x;` declaration is structure, not an arrow, and so is a module naming an item of a
//! module that *encloses* it (`super::helper`, `use super::*`, an item of `lib.rs`): a child
//! module is part of its parent (Rust gives it the parent's private items for that reason), so
//! `runner/args.rs` reading `runner/mod.rs` is not a circle with `mod.rs` calling
//! `args::parse`. Every other arrow counts: between siblings, cousins, and from a parent into
//! its children. Test code is not read: `#[cfg(test)]`
//! items and modules, `tests/` directories, doc comments and doc links.
//!
//! Between crates, the arrows are the `[dependencies]` and `[build-dependencies]` (target-specific
//! ones included) on other workspace crates. Dev-dependencies are test code, like `tests/`:
//! Cargo allows a circle through them and the layering a consumer sees does not contain them.
//!
//! A failure names each circle with the line that draws every arrow in it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use agenthooks_testkit::graph::circles;

/// Crates whose file circles are known and being opened elsewhere, with the files allowed in a
/// circle (`"*"`: any); empty: no crate has one. The test fails when an entry no longer has a
/// circle, so a stale entry cannot hide a new one.
const EXEMPT: &[(&str, &[&str], &str)] = &[];

// ------------------------------------------------------------------------------------------
// Tokens
// ------------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// An identifier or keyword (`$crate` is `crate`; `r#x` is `x`).
    Ident(String),
    /// `::`
    PathSep,
    /// Any other punctuation character.
    Punct(char),
    /// A literal or lifetime (content irrelevant here).
    Lit,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Splits Rust source into the tokens the import graph needs. Comments (nested block comments
/// included), string, raw string, byte and char literals are skipped; lifetimes are literals.
#[allow(clippy::many_single_char_names)] // a lexer's cursor, char and length
fn tokenize(src: &str) -> Vec<Token> {
    let s: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let n = s.len();
    let at = |i: usize| s.get(i).copied().unwrap_or('\0');
    while i < n {
        let c = s[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < n && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0usize;
            while i < n {
                if s[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if s[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&s, i) {
            line += s[i..end].iter().filter(|&&c| c == '\n').count();
            out.push(Token { tok: Tok::Lit, line });
            i = end;
        } else if c == '"' || ((c == 'b' || c == 'c') && at(i + 1) == '"') {
            let start_line = line;
            i += if c == '"' { 1 } else { 2 };
            while i < n && s[i] != '"' {
                if s[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
            out.push(Token {
                tok: Tok::Lit,
                line: start_line,
            });
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let q = if c == '\'' { i } else { i + 1 };
            if at(q + 1) == '\\' {
                // An escaped char literal: up to the closing quote.
                let mut j = q + 2;
                while j < n && s[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if at(q + 2) == '\'' {
                i = q + 3;
            } else {
                // A lifetime or label.
                i = q + 1;
                while i < n && is_ident_continue(s[i]) {
                    i += 1;
                }
            }
            out.push(Token { tok: Tok::Lit, line });
        } else if c == '$' && s[i + 1..].starts_with(&['c', 'r', 'a', 't', 'e']) && !is_ident_continue(at(i + 6)) {
            out.push(Token {
                tok: Tok::Ident("crate".into()),
                line,
            });
            i += 6;
        } else if c == 'r' && at(i + 1) == '#' && is_ident_start(at(i + 2)) {
            let start = i + 2;
            i = start;
            while i < n && is_ident_continue(s[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(s[start..i].iter().collect()),
                line,
            });
        } else if is_ident_start(c) {
            let start = i;
            while i < n && is_ident_continue(s[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(s[start..i].iter().collect()),
                line,
            });
        } else if c.is_ascii_digit() {
            while i < n && (is_ident_continue(s[i]) || (s[i] == '.' && at(i + 1).is_ascii_digit())) {
                i += 1;
            }
            out.push(Token { tok: Tok::Lit, line });
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

/// The end (exclusive) of a raw string literal starting at `i` (`r"…"`, `r#"…"#`, `br#"…"#`,
/// `cr"…"`), if one starts there.
fn raw_string_end(s: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(s.get(j), Some('b' | 'c')) {
        j += 1;
    }
    if s.get(j) != Some(&'r') {
        return None;
    }
    // Not the tail of an identifier (`bar"` cannot occur, but `for r"…"` style tokens can).
    if i > 0 && is_ident_continue(s[i - 1]) {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while s.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if s.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < s.len() {
        if s[j] == '"' && (0..hashes).all(|k| s.get(j + 1 + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(s.len())
}

// ------------------------------------------------------------------------------------------
// Modules
// ------------------------------------------------------------------------------------------

type ModId = usize;

/// A path as written, split at `::` (`crate`, `super`, `self` kept as segments).
type Segs = Vec<String>;

#[derive(Debug, Default)]
struct Module {
    /// The file the module's items are written in (an inline module shares its parent's).
    file: PathBuf,
    parent: Option<ModId>,
    children: BTreeMap<String, ModId>,
    /// Names of items defined here (types, functions, constants, `#[macro_export]` macros at the
    /// root).
    defs: HashSet<String>,
    /// `name → path` for every `use` binding of the module (any visibility).
    imports: HashMap<String, Segs>,
    /// `use path::*` targets.
    globs: Vec<Segs>,
    /// Every path the module's code names: (path, line).
    refs: Vec<(Segs, usize)>,
}

/// One crate target's module tree (a library, a binary).
#[derive(Debug, Default)]
struct Tree {
    mods: Vec<Module>,
}

/// Reads source files: the real file system, or a map in the unit tests.
trait Source {
    fn read(&self, path: &Path) -> Option<String>;
}

struct Disk;

impl Source for Disk {
    fn read(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
}

impl Source for BTreeMap<PathBuf, String> {
    fn read(&self, path: &Path) -> Option<String> {
        self.get(path).cloned()
    }
}

fn ident(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s),
        _ => None,
    }
}

fn is_punct(t: Option<&Token>, c: char) -> bool {
    matches!(t.map(|t| &t.tok), Some(Tok::Punct(p)) if *p == c)
}

/// The index after the group opening at `i` (`(`, `[` or `{`), its nested groups included.
fn skip_group(toks: &[Token], i: usize) -> usize {
    let mut depth = 0usize;
    let mut j = i;
    while j < toks.len() {
        match toks[j].tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    toks.len()
}

/// Whether an attribute's tokens (between `[` and `]`) make the item test-only:
/// `cfg(test)`, `cfg(all(test, …))`, but not `cfg(not(test))` or `cfg_attr(test, …)`.
fn is_test_cfg(attr: &[Token]) -> bool {
    if ident(attr.first()) != Some("cfg") {
        return false;
    }
    let names: Vec<&str> = attr.iter().filter_map(|t| ident(Some(t))).collect();
    names.contains(&"test") && !names.contains(&"not") && !names.contains(&"any")
}

const ITEM_KEYWORDS: &[&str] = &["fn", "struct", "enum", "trait", "type", "const", "static", "union"];

impl Tree {
    /// Reads the module tree rooted at `root` (a `lib.rs`, `main.rs` or `bin/*.rs`).
    fn read(src: &dyn Source, root: &Path) -> Tree {
        let mut tree = Tree::default();
        tree.mods.push(Module {
            file: root.to_path_buf(),
            ..Module::default()
        });
        let text = src.read(root).unwrap_or_default();
        let toks = tokenize(&text);
        let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
        tree.items(src, &toks, 0, toks.len(), 0, &dir);
        tree
    }

    /// Reads the items of module `m` in `toks[start..end]`. `dir` is where the module's `mod x;`
    /// children live.
    fn items(&mut self, src: &dyn Source, toks: &[Token], start: usize, end: usize, m: ModId, dir: &Path) {
        let mut i = start;
        while i < end {
            // Attributes.
            let mut test_only = false;
            let mut macro_export = false;
            while is_punct(toks.get(i), '#') {
                let mut j = i + 1;
                if is_punct(toks.get(j), '!') {
                    j += 1;
                }
                if !is_punct(toks.get(j), '[') {
                    break;
                }
                let close = skip_group(toks, j).min(end);
                let attr = &toks[j + 1..close.saturating_sub(1)];
                test_only |= is_test_cfg(attr);
                macro_export |= ident(attr.first()) == Some("macro_export");
                i = close;
            }
            if i >= end {
                break;
            }
            // Visibility.
            if ident(toks.get(i)) == Some("pub") {
                i += 1;
                if is_punct(toks.get(i), '(') {
                    i = skip_group(toks, i);
                }
            }
            match ident(toks.get(i)) {
                Some("mod") => {
                    let name = ident(toks.get(i + 1)).unwrap_or_default().to_string();
                    if is_punct(toks.get(i + 2), ';') {
                        if !test_only {
                            self.file_module(src, m, dir, &name);
                        }
                        i += 3;
                    } else if is_punct(toks.get(i + 2), '{') {
                        let close = skip_group(toks, i + 2).min(end);
                        if !test_only {
                            let file = self.mods[m].file.clone();
                            let child = self.add_child(m, &name, file);
                            self.items(src, toks, i + 3, close - 1, child, &dir.join(&name));
                        }
                        i = close;
                    } else {
                        i += 1;
                    }
                }
                Some("use") => {
                    let close = statement_end(toks, i, end);
                    if !test_only {
                        let line = toks[i].line;
                        let mut leaves = Vec::new();
                        use_tree(&toks[i + 1..close], &mut Vec::new(), &mut leaves);
                        let module = &mut self.mods[m];
                        for leaf in leaves {
                            match leaf {
                                UseLeaf::Name(path, name) => {
                                    module.refs.push((path.clone(), line));
                                    if name != "_" {
                                        module.imports.insert(name, path);
                                    }
                                }
                                UseLeaf::Glob(path) => {
                                    module.refs.push((path.clone(), line));
                                    module.globs.push(path);
                                }
                            }
                        }
                    }
                    i = close + 1;
                }
                Some("macro_rules") => {
                    let name = ident(toks.get(i + 2)).unwrap_or_default().to_string();
                    let body = i + 3;
                    let close = skip_group(toks, body).min(end);
                    if !test_only {
                        if macro_export {
                            // Exported macros live at the crate root, whatever file defines
                            // them: record the definition where it is written and a root alias.
                            self.mods[m].defs.insert(format!("{name}!"));
                            if m != 0 {
                                let path = self.path_of(m, &format!("{name}!"));
                                self.mods[0].imports.insert(format!("{name}!"), path);
                            }
                        }
                        self.scan(toks, body, close, m);
                    }
                    i = close;
                }
                _ => {
                    let close = item_end(toks, i, end);
                    if !test_only {
                        if let Some(k) = ident(toks.get(i)) {
                            let mut j = i;
                            // `unsafe fn`, `async fn`, `extern "C" fn`, `const fn`.
                            while matches!(ident(toks.get(j)), Some("unsafe" | "async" | "extern" | "default"))
                                || (toks.get(j).map(|t| &t.tok) == Some(&Tok::Lit))
                            {
                                j += 1;
                            }
                            let kw = ident(toks.get(j)).unwrap_or(k);
                            let kw = if kw == "const" && ident(toks.get(j + 1)) == Some("fn") {
                                j += 1;
                                "fn"
                            } else {
                                kw
                            };
                            if ITEM_KEYWORDS.contains(&kw) {
                                if let Some(name) = ident(toks.get(j + 1)) {
                                    self.mods[m].defs.insert(name.to_string());
                                }
                            }
                        }
                        self.scan(toks, i, close, m);
                    }
                    i = close.max(i + 1);
                }
            }
        }
    }

    /// An absolute path (`crate::a::b::name`) for `name` in module `m`.
    fn path_of(&self, m: ModId, name: &str) -> Segs {
        let mut names = vec![name.to_string()];
        let mut cur = m;
        while let Some(p) = self.mods[cur].parent {
            let (n, _) = self.mods[p]
                .children
                .iter()
                .find(|(_, &c)| c == cur)
                .expect("a child is registered in its parent");
            names.push(n.clone());
            cur = p;
        }
        names.push("crate".into());
        names.reverse();
        names
    }

    fn add_child(&mut self, parent: ModId, name: &str, file: PathBuf) -> ModId {
        let id = self.mods.len();
        self.mods.push(Module {
            file,
            parent: Some(parent),
            ..Module::default()
        });
        self.mods[parent].children.insert(name.to_string(), id);
        id
    }

    /// `mod name;` in module `m`: `dir/name.rs` or `dir/name/mod.rs`.
    fn file_module(&mut self, src: &dyn Source, m: ModId, dir: &Path, name: &str) {
        let flat = dir.join(format!("{name}.rs"));
        let nested = dir.join(name).join("mod.rs");
        let (file, text) = match src.read(&flat) {
            Some(t) => (flat, t),
            None => match src.read(&nested) {
                Some(t) => (nested, t),
                None => return,
            },
        };
        let child = self.add_child(m, name, file);
        let toks = tokenize(&text);
        self.items(src, &toks, 0, toks.len(), child, &dir.join(name));
    }

    /// Records the paths named in `toks[start..end]` (an item's body) as references of `m`:
    /// `use` trees inside functions, and inline paths starting with `crate`, `super`, `self` or
    /// a child module of `m`.
    fn scan(&mut self, toks: &[Token], start: usize, end: usize, m: ModId) {
        let mut i = start;
        while i < end {
            if ident(toks.get(i)) == Some("use")
                && !matches!(toks.get(i.wrapping_sub(1)).map(|t| &t.tok), Some(Tok::PathSep))
                && i > start
                && matches!(toks.get(i - 1).map(|t| &t.tok), Some(Tok::Punct('{' | ';' | '}' | ']')))
            {
                let close = statement_end(toks, i, end);
                let mut leaves = Vec::new();
                use_tree(&toks[i + 1..close], &mut Vec::new(), &mut leaves);
                for leaf in leaves {
                    let (UseLeaf::Name(path, _) | UseLeaf::Glob(path)) = leaf;
                    self.mods[m].refs.push((path, toks[i].line));
                }
                i = close + 1;
                continue;
            }
            let starts_path = i == start || toks[i - 1].tok != Tok::PathSep;
            if let (true, Some(first)) = (starts_path, ident(toks.get(i))) {
                // Any `a::b` path: resolution tells a path into this crate (`crate`, `super`,
                // `self`, a child module, an imported name) from another crate's.
                if toks.get(i + 1).map(|t| &t.tok) == Some(&Tok::PathSep) {
                    let line = toks[i].line;
                    let mut path = vec![first.to_string()];
                    let mut j = i + 1;
                    while toks.get(j).map(|t| &t.tok) == Some(&Tok::PathSep) {
                        match ident(toks.get(j + 1)) {
                            Some(seg) => {
                                path.push(seg.to_string());
                                j += 2;
                            }
                            None => break,
                        }
                    }
                    if is_punct(toks.get(j), '!') {
                        if let Some(last) = path.last_mut() {
                            last.push('!');
                        }
                    }
                    if path.len() > 1 {
                        self.mods[m].refs.push((path, line));
                    }
                    i = j;
                    continue;
                }
            }
            i += 1;
        }
    }
}

/// The index of the `;` ending the statement at `i` (groups skipped), or `end`.
fn statement_end(toks: &[Token], i: usize, end: usize) -> usize {
    let mut j = i;
    while j < end {
        match toks[j].tok {
            Tok::Punct(';') => return j,
            Tok::Punct('(' | '[' | '{') => j = skip_group(toks, j),
            _ => j += 1,
        }
    }
    end
}

/// The index after the item starting at `i`: after its `;`, or after the `{…}` body that ends
/// it (a `{…}` followed by `;`, as in `const X: T = T { … };`, ends at the `;`).
fn item_end(toks: &[Token], i: usize, end: usize) -> usize {
    let mut j = i;
    while j < end {
        match toks[j].tok {
            Tok::Punct(';') => return j + 1,
            Tok::Punct('{') => {
                let after = skip_group(toks, j);
                // `struct S { … }`, `fn f() { … }`, `impl T { … }` end here; an expression's
                // braces (`= S { … };`) do not.
                let is_expression = matches!(ident(toks.get(i)), Some("const" | "static"))
                    && ident(toks.get(i + 1)) != Some("fn")
                    && toks[i..j].iter().any(|t| t.tok == Tok::Punct('='));
                if !is_expression {
                    return after;
                }
                j = after;
            }
            Tok::Punct('(' | '[') => j = skip_group(toks, j),
            _ => j += 1,
        }
    }
    end
}

#[derive(Debug)]
enum UseLeaf {
    /// A binding: the path and the name it is bound to (`as` alias, or the last segment).
    Name(Segs, String),
    /// `path::*`.
    Glob(Segs),
}

/// Flattens a use tree (`a::{b, c::d as e, self, f::*}`) into leaves.
fn use_tree(toks: &[Token], prefix: &mut Segs, out: &mut Vec<UseLeaf>) {
    let mut segs: Segs = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].tok {
            Tok::Ident(s) if s == "as" => {
                let alias = ident(toks.get(i + 1)).unwrap_or("_").to_string();
                push_name(prefix, &segs, Some(alias), out);
                return;
            }
            Tok::Ident(s) => {
                segs.push(s.clone());
                i += 1;
            }
            Tok::Punct('*') => {
                let mut path = prefix.clone();
                path.extend(segs.iter().cloned());
                out.push(UseLeaf::Glob(path));
                return;
            }
            Tok::Punct('{') => {
                let close = skip_group(toks, i);
                let inner = &toks[i + 1..close.saturating_sub(1).max(i + 1)];
                let len = prefix.len();
                prefix.extend(segs.iter().cloned());
                // Split at top-level commas.
                let mut from = 0;
                let mut k = 0;
                while k <= inner.len() {
                    if k == inner.len() || inner[k].tok == Tok::Punct(',') {
                        if k > from {
                            use_tree(&inner[from..k], prefix, out);
                        }
                        from = k + 1;
                        k += 1;
                    } else if matches!(inner[k].tok, Tok::Punct('{')) {
                        k = skip_group(inner, k);
                    } else {
                        k += 1;
                    }
                }
                prefix.truncate(len);
                return;
            }
            _ => i += 1,
        }
    }
    push_name(prefix, &segs, None, out);
}

fn push_name(prefix: &[String], segs: &[String], alias: Option<String>, out: &mut Vec<UseLeaf>) {
    let mut path: Segs = prefix.to_vec();
    path.extend(segs.iter().cloned());
    if path.last().map(String::as_str) == Some("self") {
        path.pop();
    }
    let Some(last) = path.last().cloned() else {
        return;
    };
    out.push(UseLeaf::Name(path, alias.unwrap_or(last)));
}

/// Where a path lands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// A module, or an item defined in a module.
    Module(ModId),
    /// Outside the crate (another crate, std, a prelude name).
    External,
}

impl Tree {
    /// Resolves `path` as written in module `from`.
    fn resolve(&self, from: ModId, path: &[String], depth: usize) -> Target {
        if depth > 32 {
            return Target::Module(from);
        }
        let mut m = from;
        for (i, seg) in path.iter().enumerate() {
            let module = &self.mods[m];
            match seg.as_str() {
                "crate" if i == 0 => m = 0,
                "self" if i == 0 => {}
                "super" => m = module.parent.unwrap_or(m),
                _ => {
                    if let Some(&c) = module.children.get(seg) {
                        m = c;
                        continue;
                    }
                    if module.defs.contains(seg) {
                        return Target::Module(m);
                    }
                    if let Some(to) = module.imports.get(seg) {
                        // A re-export or import: follow it to the definition (relative to the
                        // module that holds the `use`).
                        let mut next = to.clone();
                        next.extend(path[i + 1..].iter().cloned());
                        return self.resolve(m, &next, depth + 1);
                    }
                    for glob in &module.globs {
                        if let Target::Module(g) = self.resolve(m, glob, depth + 1) {
                            let g_mod = &self.mods[g];
                            if g_mod.defs.contains(seg)
                                || g_mod.children.contains_key(seg)
                                || g_mod.imports.contains_key(seg)
                            {
                                let mut next = glob.clone();
                                next.extend(path[i..].iter().cloned());
                                return self.resolve(m, &next, depth + 1);
                            }
                        }
                    }
                    if i == 0 {
                        // Not a name of this crate: another crate, std, a prelude name.
                        return Target::External;
                    }
                    // A name this reader does not see defined (a variant, a generated item):
                    // it belongs to the module the path reached.
                    return Target::Module(m);
                }
            }
        }
        Target::Module(m)
    }

    /// Whether module `outer` is `inner` or one of its ancestors.
    fn encloses(&self, outer: ModId, inner: ModId) -> bool {
        let mut cur = Some(inner);
        while let Some(m) = cur {
            if m == outer {
                return true;
            }
            cur = self.mods[m].parent;
        }
        false
    }

    /// The arrows between files: `from file → (to file → first (line, path))`.
    fn edges(&self) -> BTreeMap<PathBuf, BTreeMap<PathBuf, (usize, String)>> {
        let mut edges: BTreeMap<PathBuf, BTreeMap<PathBuf, (usize, String)>> = BTreeMap::new();
        for (id, module) in self.mods.iter().enumerate() {
            for (path, line) in &module.refs {
                if let Target::Module(t) = self.resolve(id, path, 0) {
                    let to = &self.mods[t].file;
                    if *to != module.file && !self.encloses(t, id) {
                        edges
                            .entry(module.file.clone())
                            .or_default()
                            .entry(to.clone())
                            .or_insert_with(|| (*line, path.join("::")));
                    }
                }
            }
        }
        edges
    }
}

// ------------------------------------------------------------------------------------------
// Circles
// ------------------------------------------------------------------------------------------

/// One shortest cycle through the component's first node, as a closed walk `[a, …, a]`.
fn one_cycle<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>, comp: &[N]) -> Vec<N> {
    let inside: BTreeSet<&N> = comp.iter().collect();
    let start = &comp[0];
    let mut prev: BTreeMap<N, N> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    let mut seen = BTreeSet::from([start.clone()]);
    while let Some(v) = queue.pop_front() {
        for w in edges.get(&v).into_iter().flatten() {
            if !inside.contains(w) {
                continue;
            }
            if w == start {
                let mut walk = vec![start.clone(), v.clone()];
                let mut cur = v;
                while let Some(p) = prev.get(&cur) {
                    walk.push(p.clone());
                    cur = p.clone();
                }
                walk.reverse();
                return walk;
            }
            if seen.insert(w.clone()) {
                prev.insert(w.clone(), v.clone());
                queue.push_back(w.clone());
            }
        }
    }
    comp.to_vec()
}

/// The file circles of one crate, each rendered with the line that draws every arrow, and the
/// files in it (relative to `src`).
fn file_circles(src: &dyn Source, crate_dir: &Path, roots: &[PathBuf]) -> Vec<(Vec<String>, String)> {
    let mut edges: BTreeMap<PathBuf, BTreeMap<PathBuf, (usize, String)>> = BTreeMap::new();
    for root in roots {
        let tree = Tree::read(src, root);
        for (from, tos) in tree.edges() {
            let entry = edges.entry(from).or_default();
            for (to, why) in tos {
                entry.entry(to).or_insert(why);
            }
        }
    }
    let graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = edges
        .iter()
        .map(|(k, v)| (k.clone(), v.keys().cloned().collect()))
        .collect();
    let src_dir = crate_dir.join("src");
    let short = |p: &Path| p.strip_prefix(&src_dir).unwrap_or(p).to_string_lossy().into_owned();
    circles(&graph)
        .into_iter()
        .map(|comp| {
            let walk = one_cycle(&graph, &comp);
            let mut text = walk.iter().map(|p| short(p)).collect::<Vec<_>>().join(" -> ");
            for pair in walk.windows(2) {
                let (line, path) = &edges[&pair[0]][&pair[1]];
                let _ = write!(text, "\n      {}:{line} names `{path}`", short(&pair[0]));
            }
            if comp.len() > walk.len().saturating_sub(1) {
                let all: Vec<String> = comp.iter().map(|p| short(p)).collect();
                let _ = write!(
                    text,
                    "\n      (all {} files in the circle: {})",
                    comp.len(),
                    all.join(", ")
                );
            }
            (comp.iter().map(|p| short(p)).collect(), text)
        })
        .collect()
}

/// The crate roots of a crate directory: `src/lib.rs`, `src/main.rs`, `src/bin/*.rs` and
/// `src/bin/*/main.rs`.
fn crate_roots(crate_dir: &Path) -> Vec<PathBuf> {
    let src = crate_dir.join("src");
    let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .filter(|p| p.is_file())
        .collect();
    if let Ok(dir) = std::fs::read_dir(src.join("bin")) {
        let mut bins: Vec<PathBuf> = dir
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter_map(|p| {
                if p.extension().is_some_and(|e| e == "rs") {
                    Some(p)
                } else {
                    Some(p.join("main.rs")).filter(|m| m.is_file())
                }
            })
            .collect();
        bins.sort();
        roots.extend(bins);
    }
    roots
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/<name> sits two levels under the workspace root")
        .to_path_buf()
}

/// Every workspace crate: (package name, directory).
fn workspace_crates() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(workspace_root().join("crates")).expect("crates/") {
        let dir = entry.expect("a crates/ entry").path();
        let Ok(text) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        let doc: toml_edit::DocumentMut = text.parse().expect("a crate's Cargo.toml parses");
        let name = doc["package"]["name"].as_str().expect("[package] name").to_string();
        out.push((name, dir));
    }
    out.sort();
    out
}

/// The package names a manifest depends on through `[dependencies]` and
/// `[build-dependencies]`, target-specific tables included (renames followed through `package`).
fn manifest_deps(text: &str) -> BTreeSet<String> {
    let doc: toml_edit::DocumentMut = text.parse().expect("a crate's Cargo.toml parses");
    let mut tables: Vec<&toml_edit::Item> = Vec::new();
    for key in ["dependencies", "build-dependencies"] {
        if let Some(t) = doc.get(key) {
            tables.push(t);
        }
        if let Some(targets) = doc.get("target").and_then(toml_edit::Item::as_table_like) {
            for (_, target) in targets.iter() {
                if let Some(t) = target.get(key) {
                    tables.push(t);
                }
            }
        }
    }
    let mut deps = BTreeSet::new();
    for table in tables {
        let Some(table) = table.as_table_like() else {
            continue;
        };
        for (key, value) in table.iter() {
            let package = value
                .as_table_like()
                .and_then(|t| t.get("package"))
                .and_then(toml_edit::Item::as_str)
                .unwrap_or(key);
            deps.insert(package.to_string());
        }
    }
    deps
}

#[test]
fn no_import_circle_among_a_crates_files() {
    let mut failures = String::new();
    let mut unused_exemptions: Vec<&str> = EXEMPT.iter().map(|(c, _, _)| *c).collect();
    let crates = workspace_crates();
    assert!(crates.len() > 10, "the workspace's crates are found: {crates:?}");
    let mut files_read = 0;
    for (name, dir) in &crates {
        let roots = crate_roots(dir);
        files_read += roots.len();
        let exempt = EXEMPT.iter().find(|(c, _, _)| c == name);
        for (files, text) in file_circles(&Disk, dir, &roots) {
            if let Some((_, allowed, _)) = exempt {
                if allowed.contains(&"*") || files.iter().all(|f| allowed.contains(&f.as_str())) {
                    unused_exemptions.retain(|c| c != name);
                    continue;
                }
            }
            let _ = writeln!(failures, "  {name}: {text}");
        }
    }
    assert!(files_read > 10, "crate roots are found");
    assert!(
        failures.is_empty(),
        "import circles among a crate's files (open each: move the shared item to a leaf module \
         both can import):\n{failures}"
    );
    assert!(
        unused_exemptions.is_empty(),
        "these crates are in EXEMPT but have no circle any more; remove their entries: \
         {unused_exemptions:?}"
    );
}

/// The reader sees the real tree: core's layering arrows are found, through the kit's
/// re-exports to the defining files.
#[test]
fn the_reader_finds_cores_layering_arrows() {
    let dir = workspace_root().join("crates/agenthooks-core");
    let tree = Tree::read(&Disk, &dir.join("src/lib.rs"));
    let edges = tree.edges();
    let src = dir.join("src");
    let has = |from: &str, to: &str| {
        edges
            .get(&src.join(from))
            .is_some_and(|t| t.contains_key(&src.join(to)))
    };
    let total: usize = edges.values().map(BTreeMap::len).sum();
    assert!(total > 40, "{total} arrows in core");
    // `kit.rs` builds on `Codec`; `codec.rs` names `crate::kit::EventRow`, defined in kit/table.rs.
    assert!(has("kit.rs", "codec.rs"), "kit.rs -> codec.rs");
    assert!(
        has("codec.rs", "kit/table.rs"),
        "codec.rs -> kit/table.rs (through kit's re-export)"
    );
    assert!(!has("codec.rs", "kit.rs"), "codec.rs does not reach kit.rs");
}

#[test]
fn no_circle_between_crates() {
    let crates = workspace_crates();
    let names: BTreeSet<&String> = crates.iter().map(|(n, _)| n).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, dir) in &crates {
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).expect("Cargo.toml");
        let deps: BTreeSet<String> = manifest_deps(&text).into_iter().filter(|d| names.contains(d)).collect();
        graph.insert(name.clone(), deps);
    }
    assert!(
        graph.get("agenthooks").is_some_and(|d| d.contains("agenthooks-core")),
        "the facade's dependency on core is read: {graph:?}"
    );
    let found: Vec<String> = circles(&graph)
        .iter()
        .map(|c| one_cycle(&graph, c).join(" -> "))
        .collect();
    assert!(found.is_empty(), "circles between crates: {found:#?}");
}

// ------------------------------------------------------------------------------------------
// The reader on small synthetic trees
// ------------------------------------------------------------------------------------------

mod reader {
    use super::{circles, file_circles, manifest_deps, one_cycle, tokenize, Tok, Tree};
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};

    fn tree(files: &[(&str, &str)]) -> BTreeMap<PathBuf, String> {
        files
            .iter()
            .map(|(p, s)| (Path::new("/c/src").join(p), (*s).to_string()))
            .collect()
    }

    fn found(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        let src = tree(files);
        file_circles(&src, Path::new("/c"), &[PathBuf::from("/c/src/lib.rs")])
            .into_iter()
            .map(|(files, _)| files)
            .collect()
    }

    fn text(files: &[(&str, &str)]) -> String {
        let src = tree(files);
        file_circles(&src, Path::new("/c"), &[PathBuf::from("/c/src/lib.rs")])
            .into_iter()
            .map(|(_, t)| t)
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn a_mutual_use_is_a_circle_named_with_its_lines() {
        let files = [
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "use crate::b::B;\npub struct A;\n"),
            ("b.rs", "pub struct B;\n\nfn f() -> super::a::A { todo() }\n"),
        ];
        assert_eq!(found(&files), vec![vec!["a.rs".to_string(), "b.rs".into()]]);
        let t = text(&files);
        assert!(t.contains("a.rs -> b.rs -> a.rs"), "{t}");
        assert!(t.contains("a.rs:1 names `crate::b::B`"), "{t}");
        assert!(t.contains("b.rs:3 names `super::a::A`"), "{t}");
    }

    #[test]
    fn a_layered_tree_passes() {
        let files = [
            ("lib.rs", "mod a;\nmod b;\nmod c;\npub use a::A;\npub use b::B;\n"),
            ("a.rs", "pub struct A;\n"),
            ("b.rs", "use crate::a::A;\npub struct B(A);\n"),
            (
                "c.rs",
                "use crate::{a::A, b::{self, B}};\nfn f(_: A, _: B) { b::g() }\n",
            ),
        ];
        assert!(found(&files).is_empty());
    }

    #[test]
    fn a_root_re_export_resolves_to_the_defining_file() {
        // `kit` names `crate::Codec` (re-exported by lib.rs from codec.rs) and `codec` names
        // `crate::kit::Row`: a circle, although no file names the other's path directly.
        let files = [
            (
                "lib.rs",
                "pub mod codec;\npub mod kit;\npub use codec::Codec;\npub use kit::Row as KitRow;\n",
            ),
            (
                "codec.rs",
                "use crate::KitRow;\npub trait Codec { fn row(&self) -> KitRow; }\n",
            ),
            ("kit.rs", "pub struct Row;\npub fn f(c: &dyn crate::Codec) {}\n"),
        ];
        assert_eq!(found(&files), vec![vec!["codec.rs".to_string(), "kit.rs".into()]]);
    }

    #[test]
    fn a_three_file_loop_through_nested_modules_and_globs() {
        let files = [
            ("lib.rs", "pub mod kit;\npub mod event;\npub mod error;\n"),
            ("kit/mod.rs", "mod lenient;\npub use lenient::*;\n"),
            ("kit/lenient.rs", "use crate::event::Event;\npub fn flag() {}\n"),
            (
                "event.rs",
                "pub struct Event;\nimpl Event { fn e() -> crate::error::E { todo() } }\n",
            ),
            ("error.rs", "pub struct E;\nfn g() { crate::kit::flag() }\n"),
        ];
        assert_eq!(
            found(&files),
            vec![vec!["error.rs".to_string(), "event.rs".into(), "kit/lenient.rs".into()]]
        );
    }

    #[test]
    fn test_code_comments_and_strings_draw_no_arrow() {
        let files = [
            ("lib.rs", "mod a;\nmod b;\n#[cfg(test)]\nmod tests;\n"),
            (
                "a.rs",
                "//! See [`crate::b::B`].\npub struct A;\n\
                 /* use crate::b::B; */\n\
                 const S: &str = \"crate::b::B\";\n\
                 const R: &str = r#\"use crate::b::B;\"#;\n\
                 fn l<'a>(x: &'a str) -> char { 'c' }\n\
                 #[cfg(test)]\nmod t { use crate::b::B; }\n\
                 #[cfg(all(test, unix))]\nfn u() { crate::b::f() }\n",
            ),
            ("b.rs", "use crate::a::A;\npub struct B;\npub fn f() {}\n"),
            ("tests.rs", "use crate::a::A;\nuse crate::b::B;\n"),
        ];
        assert!(found(&files).is_empty(), "{}", text(&files));
    }

    #[test]
    fn cfg_not_test_code_is_read() {
        let files = [
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "pub struct A;\n#[cfg(not(test))]\nfn u() { crate::b::f() }\n"),
            ("b.rs", "use crate::a::A;\npub fn f() {}\n"),
        ];
        assert_eq!(found(&files).len(), 1);
    }

    #[test]
    fn uses_inside_functions_and_inline_modules_count() {
        let files = [
            ("lib.rs", "mod a;\nmod b;\n"),
            (
                "a.rs",
                "pub struct A;\nfn f() { use crate::b::B as Bee; let _ = Bee; }\n",
            ),
            (
                "b.rs",
                "pub struct B;\nmod inner {\n    pub(crate) fn g() -> super::super::a::A { todo() }\n}\n",
            ),
        ];
        assert_eq!(found(&files), vec![vec!["a.rs".to_string(), "b.rs".into()]]);
    }

    #[test]
    fn exported_macros_resolve_to_their_file() {
        let files = [
            ("lib.rs", "mod macros;\npub mod event;\n"),
            (
                "macros.rs",
                "#[macro_export]\nmacro_rules! ev { () => { $crate::event::Event }; }\n",
            ),
            ("event.rs", "pub struct Event;\nfn f() { crate::ev!(); }\n"),
        ];
        assert_eq!(found(&files), vec![vec!["event.rs".to_string(), "macros.rs".into()]]);
    }

    #[test]
    fn a_child_reading_its_parent_is_no_arrow_but_siblings_through_it_are() {
        // `args` reads its parent `runner/mod.rs`, and the parent calls into `args`: no circle.
        let files = [
            ("lib.rs", "mod runner;\n"),
            (
                "runner/mod.rs",
                "mod args;\nmod serve;\npub struct Runner;\nfn f() { args::parse() }\n",
            ),
            ("runner/args.rs", "use super::Runner;\npub fn parse() {}\n"),
            ("runner/serve.rs", "use super::*;\npub fn serve(_: Runner) {}\n"),
        ];
        assert!(found(&files).is_empty(), "{}", text(&files));
        // Siblings naming each other (one through the parent's re-export) are a circle.
        let files = [
            ("lib.rs", "mod runner;\n"),
            ("runner/mod.rs", "mod args;\nmod serve;\npub use serve::HELLO;\n"),
            ("runner/args.rs", "use super::HELLO;\npub fn parse() {}\n"),
            (
                "runner/serve.rs",
                "pub const HELLO: u8 = 1;\nfn f() { super::args::parse() }\n",
            ),
        ];
        assert_eq!(
            found(&files),
            vec![vec!["runner/args.rs".to_string(), "runner/serve.rs".into()]]
        );
    }

    #[test]
    fn the_tokenizer_skips_literals_and_keeps_lines() {
        let toks = tokenize("a /* x\n /* y */ */ b\n\"s\\\"\n\" c r##\"q\"#\"## d '\\'' e");
        let idents: Vec<(String, usize)> = toks
            .iter()
            .filter_map(|t| match &t.tok {
                Tok::Ident(s) => Some((s.clone(), t.line)),
                _ => None,
            })
            .collect();
        assert_eq!(
            idents,
            vec![
                ("a".to_string(), 1),
                ("b".into(), 2),
                ("c".into(), 4),
                ("d".into(), 4),
                ("e".into(), 4)
            ]
        );
    }

    #[test]
    fn circles_finds_components_and_one_cycle() {
        let g: BTreeMap<u8, BTreeSet<u8>> = [
            (1, BTreeSet::from([2])),
            (2, BTreeSet::from([3])),
            (3, BTreeSet::from([1, 4])),
            (4, BTreeSet::from([5])),
            (5, BTreeSet::new()),
        ]
        .into_iter()
        .collect();
        let c = circles(&g);
        assert_eq!(c, vec![vec![1, 2, 3]]);
        assert_eq!(one_cycle(&g, &c[0]), vec![1, 2, 3, 1]);
        let dag: BTreeMap<u8, BTreeSet<u8>> = [(1, BTreeSet::from([2, 3])), (2, BTreeSet::from([3]))]
            .into_iter()
            .collect();
        assert!(circles(&dag).is_empty());
    }

    #[test]
    fn manifest_deps_reads_normal_build_and_target_tables_not_dev() {
        let deps = manifest_deps(
            "[package]\nname = \"x\"\n[dependencies]\na.workspace = true\nb = { path = \"../b\" }\n\
             renamed = { package = \"c\", path = \"../c\" }\n[build-dependencies]\nd = \"1\"\n\
             [target.'cfg(unix)'.dependencies]\ne = \"1\"\n[dev-dependencies]\nf = \"1\"\n",
        );
        assert_eq!(
            deps,
            ["a", "b", "c", "d", "e"].iter().map(ToString::to_string).collect()
        );
    }

    #[test]
    fn resolve_follows_imports_to_the_definition() {
        let src = tree(&[
            ("lib.rs", "pub mod a;\nmod b;\npub use b::Deep as Shallow;\n"),
            ("a.rs", "pub use crate::Shallow as Again;\n"),
            ("b.rs", "pub struct Deep;\n"),
        ]);
        let t = Tree::read(&src, Path::new("/c/src/lib.rs"));
        let path: Vec<String> = ["crate", "a", "Again"].iter().map(ToString::to_string).collect();
        match t.resolve(0, &path, 0) {
            super::Target::Module(m) => assert_eq!(t.mods[m].file, Path::new("/c/src/b.rs")),
            super::Target::External => panic!("resolved outside the crate"),
        }
        let ext: Vec<String> = ["serde", "Serialize"].iter().map(ToString::to_string).collect();
        assert_eq!(t.resolve(0, &ext, 0), super::Target::External);
    }
}
