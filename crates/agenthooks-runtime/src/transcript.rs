//! Best-effort transcript readers: parsing primitives over the session files the agents write
//! (design §10, §11 — primitives, not pipelines).
//!
//! Each agent whose payload names a transcript file ([`SessionInfo::transcript_path`](agenthooks_core::SessionInfo))
//! writes its own format; its codec's [`TranscriptFormat`] ([`Codec::transcript`]) types the
//! records (the formats live in the provider crates; an agent without one is read [`Untyped`]).
//!
//! Reading is **never an error** for content: every non-empty line becomes one [`Record`] that
//! keeps its raw text and parsed value; a line of an unknown type, with unknown fields, or that
//! is not JSON at all is a record with no [`Record::items`] ([`Record::is_unknown`]). Only I/O
//! fails.
//!
//! - [`Reader`] streams a finished file (or any [`Read`]) from the start or from a byte offset
//!   ([`Reader::open_at`]); a last line without its newline is still a record.
//! - [`Tail`] follows a file being written: each [`Tail::poll`] returns the records completed
//!   since the last one and holds a partial last line back until its newline arrives.
//!   [`Tail::offset`] is the byte offset to resume from later.
//! - [`LineBuffer`] is the splitting primitive both use (bytes in, complete lines out).
//!
//! **Bounded.** A transcript path comes from the payload, so reading it must not hang or exhaust
//! the hook: files are opened without blocking and only a regular file is read (a FIFO,
//! `/dev/zero` or a directory is an error of kind `InvalidInput`, at once). A [`Tail::poll`]
//! reads at most [`TAIL_READ_CAP`] (16 MiB) of new bytes: when more was appended since the last
//! poll, it reads only the last 16 MiB, from the first line start in them (the lines before are
//! skipped, logged). A JSON document (Gemini) larger than [`DOCUMENT_CAP`] (64 MiB) is not read.
//!
//! **Gemini's JSON document.** Gemini CLI before its JSONL format rewrites one pretty-printed
//! JSON document (`{"sessionId", …, "messages": [...]}`) on every update, so it cannot be read
//! line by line. A Gemini file whose first line is not a complete JSON value is read as that
//! document: one record for the header (the document without `messages`) and one per message,
//! with [`Record::index`] giving the message's position and [`Record::offset`] `0`. [`Tail`]
//! re-reads such a file when it changes and returns the messages past those already returned
//! (a document caught mid-write does not parse and is retried on the next poll).
//!
//! ```
//! use agenthooks_runtime::transcript::{Item, Reader, Untyped};
//! let file = br#"{"type":"user","message":{"role":"user","content":"hi"}}
//! {"type":"future-type","x":1}
//! not JSON
//! "#;
//! let records: Vec<_> = Reader::new(&Untyped, &file[..]).collect::<Result<_, _>>().unwrap();
//! assert_eq!(records.len(), 3);
//! assert_eq!(records[0].native_type, "user");
//! assert!(records.iter().all(|r| r.is_unknown() && r.items.is_empty() && !r.raw().is_empty()));
//! assert_eq!(records[1].native_type, "future-type");
//! ```

pub mod backfill;

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

pub use agenthooks_core::kit::transcript::{Item, TranscriptFormat, Untyped};
use agenthooks_core::{Codec, Env, Envelope, Event};

/// The most new bytes one [`Tail::poll`] reads: the last 16 MiB of what was appended.
pub const TAIL_READ_CAP: u64 = 16 << 20;
/// The largest transcript JSON document (Gemini's pre-JSONL session file) that is read: 64 MiB.
pub const DOCUMENT_CAP: u64 = 64 << 20;

fn document_too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("a transcript JSON document over {DOCUMENT_CAP} bytes is not read"),
    )
}

/// One record of a transcript: one line of a JSONL file, or one part of a JSON document.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Record {
    /// Byte offset of the line in the file (`0` for the parts of a JSON document): where
    /// [`Reader::open_at`] or [`Tail::at`] resume to read it again.
    pub offset: u64,
    index: Option<usize>,
    /// The record's type as the agent spells it (`""` when it has none; Cursor's lines
    /// have a `role` instead, which stands here).
    pub native_type: String,
    /// What the reader understood, in the order the record holds it; empty for an unknown
    /// record.
    pub items: Vec<Item>,
    value: Value,
    raw: String,
}

impl Record {
    /// Types one line read at `offset`.
    pub fn from_line(format: &dyn TranscriptFormat, offset: u64, raw: String) -> Self {
        let value = serde_json::from_str::<Value>(&raw).unwrap_or(Value::Null);
        Self::from_value(format, offset, None, value, raw)
    }

    fn from_value(format: &dyn TranscriptFormat, offset: u64, index: Option<usize>, value: Value, raw: String) -> Self {
        let (native_type, items) = format.classify(&value);
        Self {
            offset,
            index,
            native_type,
            items,
            value,
            raw,
        }
    }

    /// Position in the document's `messages` (Gemini JSON documents only; `None` for the
    /// header and for JSONL lines).
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// The parsed line (`Value::Null` when it is not JSON): every field, known or not.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The line exactly as read (without its line ending).
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// Whether the reader understood nothing of it (kept, never dropped).
    pub fn is_unknown(&self) -> bool {
        self.items.is_empty()
    }

    /// The record as one JSON object: `offset`, `index` (when set), `type`, `items`, and `raw`
    /// when asked for (the `agenthooks transcript` output).
    pub fn to_json(&self, with_raw: bool) -> Value {
        let mut m = Map::new();
        m.insert("offset".into(), self.offset.into());
        if let Some(i) = self.index {
            m.insert("index".into(), i.into());
        }
        m.insert("type".into(), self.native_type.clone().into());
        m.insert("unknown".into(), self.is_unknown().into());
        m.insert("items".into(), serde_json::to_value(&self.items).unwrap_or(Value::Null));
        if with_raw {
            m.insert("raw".into(), self.raw.clone().into());
        }
        Value::Object(m)
    }
}

/// Splits bytes into lines as they arrive: complete lines out, the partial last line held.
///
/// Lines end at `\n` (a trailing `\r` is dropped); empty lines are skipped; invalid UTF-8 is
/// replaced, never an error.
///
/// ```
/// use agenthooks_runtime::transcript::LineBuffer;
/// let mut b = LineBuffer::at(10);
/// assert!(b.push(b"{\"a\"").is_empty());
/// assert_eq!(b.push(b":1}\n{"), vec![(10, "{\"a\":1}".to_owned())]);
/// assert_eq!(b.offset(), 18);
/// assert_eq!(b.finish(), Some((18, "{".to_owned())));
/// ```
#[derive(Debug, Clone, Default)]
pub struct LineBuffer {
    pending: Vec<u8>,
    offset: u64,
}

impl LineBuffer {
    /// A buffer whose first byte is at `offset` in the file.
    pub fn at(offset: u64) -> Self {
        Self {
            pending: Vec::new(),
            offset,
        }
    }

    /// Adds bytes; returns the lines they complete, each with its start offset.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..nl]);
            rest = &rest[nl + 1..];
            let len = self.pending.len() as u64 + 1;
            if let Some(line) = take_line(&mut self.pending) {
                out.push((self.offset, line));
            }
            self.offset += len;
        }
        self.pending.extend_from_slice(rest);
        out
    }

    /// Offset of the first byte not yet returned as part of a complete line (where to resume).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Bytes held back (the partial last line).
    pub fn pending(&self) -> &[u8] {
        &self.pending
    }

    /// Ends the input: the partial last line, if any, as a line of its own.
    pub fn finish(&mut self) -> Option<(u64, String)> {
        let at = self.offset;
        self.offset += self.pending.len() as u64;
        take_line(&mut self.pending).map(|l| (at, l))
    }
}

/// The pending bytes as a line (cleared), `None` when blank.
fn take_line(pending: &mut Vec<u8>) -> Option<String> {
    if pending.last() == Some(&b'\r') {
        pending.pop();
    }
    let line = String::from_utf8_lossy(pending).into_owned();
    pending.clear();
    (!line.trim().is_empty()).then_some(line)
}

/// Whether a file's first line opens a multi-line JSON document (Gemini's, before JSONL).
fn opens_document(format: &dyn TranscriptFormat, first_line: &str) -> bool {
    format.may_be_document()
        && first_line.trim_start().starts_with('{')
        && serde_json::from_str::<Value>(first_line).is_err()
}

/// The records of a JSON document (Gemini's session file): header, then one per message.
/// `None` when the text is not a JSON object.
fn document_records(format: &dyn TranscriptFormat, text: &str) -> Option<Vec<Record>> {
    let Ok(Value::Object(mut doc)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    let messages = match doc.remove("messages") {
        Some(Value::Array(a)) => a,
        Some(other) => {
            doc.insert("messages".into(), other);
            Vec::new()
        }
        None => Vec::new(),
    };
    let header = Value::Object(doc);
    let mut out = vec![Record::from_value(format, 0, None, header.clone(), header.to_string())];
    for (i, m) in messages.into_iter().enumerate() {
        let raw = m.to_string();
        out.push(Record::from_value(format, 0, Some(i), m, raw));
    }
    Some(out)
}

/// Streams the records of a transcript.
///
/// From any [`Read`] ([`Reader::new`]) or a file, from its start or from a byte offset
/// ([`Reader::open_at`]: records after that point, offsets counted from the file's start).
#[derive(Debug)]
pub struct Reader<R> {
    format: &'static dyn TranscriptFormat,
    input: R,
    lines: LineBuffer,
    queue: VecDeque<Record>,
    started: bool,
    done: bool,
}

impl<R: Read> Reader<R> {
    /// Reads `input` from its start.
    pub fn new(format: &'static dyn TranscriptFormat, input: R) -> Self {
        Self::starting_at(format, input, 0)
    }

    /// Reads `input`, whose first byte is at `offset` in the file (offsets of the records
    /// count from there).
    pub fn starting_at(format: &'static dyn TranscriptFormat, input: R, offset: u64) -> Self {
        Self {
            format,
            input,
            lines: LineBuffer::at(offset),
            queue: VecDeque::new(),
            started: offset > 0,
            done: false,
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        let mut chunk = [0u8; 8 * 1024];
        while self.queue.is_empty() && !self.done {
            let n = match self.input.read(&mut chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let mut lines = if n == 0 {
                self.done = true;
                self.lines.finish().into_iter().collect()
            } else {
                self.lines.push(&chunk[..n])
            };
            if !self.started && !lines.is_empty() {
                self.started = true;
                if opens_document(self.format, &lines[0].1) {
                    self.read_document(&lines)?;
                    return Ok(());
                }
            }
            for (at, line) in lines.drain(..) {
                self.queue.push_back(Record::from_line(self.format, at, line));
            }
        }
        Ok(())
    }

    /// Reads the rest as one JSON document; a text that does not parse falls back to lines.
    fn read_document(&mut self, first: &[(u64, String)]) -> io::Result<()> {
        let mut text = String::new();
        for (_, l) in first {
            text.push_str(l);
            text.push('\n');
        }
        let mut rest = Vec::from(std::mem::take(&mut self.lines).pending());
        (&mut self.input).take(DOCUMENT_CAP + 1).read_to_end(&mut rest)?;
        if rest.len() as u64 > DOCUMENT_CAP {
            return Err(document_too_large());
        }
        self.done = true;
        text.push_str(&String::from_utf8_lossy(&rest));
        if let Some(records) = document_records(self.format, &text) {
            self.queue.extend(records);
        } else {
            tracing::debug!("transcript: a JSON document that does not parse; read as lines");
            let mut b = LineBuffer::at(first.first().map_or(0, |l| l.0));
            let mut lines = b.push(text.as_bytes());
            lines.extend(b.finish());
            self.queue
                .extend(lines.into_iter().map(|(at, l)| Record::from_line(self.format, at, l)));
        }
        Ok(())
    }
}

impl Reader<BufReader<File>> {
    /// Opens a transcript file from its start.
    pub fn open(format: &'static dyn TranscriptFormat, path: impl AsRef<Path>) -> io::Result<Self> {
        Self::open_at(format, path, 0)
    }

    /// Opens a transcript file at byte `offset` (a line start, e.g. a [`Tail::offset`] or a
    /// [`Record::offset`] saved earlier). Only a regular file opens (see the module docs).
    pub fn open_at(format: &'static dyn TranscriptFormat, path: impl AsRef<Path>, offset: u64) -> io::Result<Self> {
        let mut f = crate::safe_fs::open_regular(path.as_ref())?;
        if offset > 0 {
            f.seek(SeekFrom::Start(offset))?;
        }
        Ok(Self::starting_at(format, BufReader::new(f), offset))
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = io::Result<Record>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Err(e) = self.fill() {
            self.done = true;
            return Some(Err(e));
        }
        self.queue.pop_front().map(Ok)
    }
}

/// Follows a transcript file being written.
///
/// ```
/// use agenthooks_runtime::transcript::{Tail, Untyped};
/// use std::io::Write as _;
/// let path = std::env::temp_dir().join(format!("agenthooks-tail-doc-{}.jsonl", std::process::id()));
/// let mut f = std::fs::File::create(&path).unwrap();
/// let mut tail = Tail::open(&Untyped, &path);
/// f.write_all(br#"{"type":"session_meta","payload":{}}"#).unwrap();
/// assert!(tail.poll().unwrap().is_empty()); // no newline yet: held back
/// f.write_all(b"\n").unwrap();
/// assert_eq!(tail.poll().unwrap().len(), 1);
/// assert_eq!(tail.offset(), 37);
/// # std::fs::remove_file(&path).unwrap();
/// ```
#[derive(Debug)]
pub struct Tail {
    format: &'static dyn TranscriptFormat,
    path: PathBuf,
    lines: LineBuffer,
    /// Read position in the file (≥ `lines.offset()`: the partial line is buffered).
    read_to: u64,
    /// Document mode (Gemini JSON): the number of document records already returned.
    document: Option<usize>,
    /// Whether the first complete line has been seen (JSONL or document decided).
    decided: bool,
    /// The offset the tail started at (a document is only recognised from the start).
    lines_from: u64,
}

impl Tail {
    /// Follows `path` from its start (the file need not exist yet).
    pub fn open(format: &'static dyn TranscriptFormat, path: impl Into<PathBuf>) -> Self {
        Self::at(format, path, 0)
    }

    /// Follows `path` from byte `offset` (a line start).
    pub fn at(format: &'static dyn TranscriptFormat, path: impl Into<PathBuf>, offset: u64) -> Self {
        Self {
            format,
            path: path.into(),
            lines: LineBuffer::at(offset),
            read_to: offset,
            document: None,
            decided: false,
            lines_from: offset,
        }
    }

    /// Where to resume later: the offset after the last complete line returned.
    pub fn offset(&self) -> u64 {
        self.lines.offset()
    }

    /// The records completed since the last poll (none when the file does not exist yet). Only
    /// a regular file is read, and at most [`TAIL_READ_CAP`] bytes of it (see the module docs).
    pub fn poll(&mut self) -> io::Result<Vec<Record>> {
        let mut f = match crate::safe_fs::open_regular(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        if let Some(seen) = self.document {
            return self.poll_document(&mut f, seen);
        }
        let len = f.metadata()?.len();
        if len < self.read_to {
            tracing::debug!(path = %self.path.display(), "transcript: file shrank; reading it again from the start");
            self.lines = LineBuffer::at(0);
            self.read_to = 0;
            self.lines_from = 0;
            self.decided = false;
        }
        if len - self.read_to > TAIL_READ_CAP {
            self.skip_to_tail(&mut f, len)?;
        }
        f.seek(SeekFrom::Start(self.read_to))?;
        let mut bytes = Vec::new();
        (&mut f).take(TAIL_READ_CAP).read_to_end(&mut bytes)?;
        self.read_to += bytes.len() as u64;
        let lines = self.lines.push(&bytes);
        if !self.decided {
            if let Some((_, first)) = lines.first() {
                self.decided = true;
                if self.lines_from == 0 && opens_document(self.format, first) {
                    self.lines = LineBuffer::at(0);
                    self.read_to = 0;
                    return self.poll_document(&mut f, 0);
                }
            }
        }
        Ok(lines
            .into_iter()
            .map(|(at, l)| Record::from_line(self.format, at, l))
            .collect())
    }

    /// Moves the read position to the first line start in the last [`TAIL_READ_CAP`] bytes of a
    /// file of `len` bytes (the byte before the window tells whether it starts a line).
    fn skip_to_tail(&mut self, f: &mut File, len: u64) -> io::Result<()> {
        let window = len - TAIL_READ_CAP;
        f.seek(SeekFrom::Start(window - 1))?;
        let mut scan = Vec::new();
        (&mut *f).take(TAIL_READ_CAP + 1).read_to_end(&mut scan)?;
        let start = scan.iter().position(|b| *b == b'\n').map_or(len, |i| window + i as u64);
        tracing::warn!(
            path = %self.path.display(),
            skipped = start - self.lines.offset(),
            "transcript: more than the read cap appended since the last read; reading only its end"
        );
        self.lines = LineBuffer::at(start);
        self.read_to = start;
        self.lines_from = start;
        self.decided = true;
        Ok(())
    }

    fn poll_document(&mut self, f: &mut File, seen: usize) -> io::Result<Vec<Record>> {
        self.document = Some(seen);
        if f.metadata()?.len() > DOCUMENT_CAP {
            return Err(document_too_large());
        }
        f.seek(SeekFrom::Start(0))?;
        let mut text = String::new();
        (&mut *f).take(DOCUMENT_CAP).read_to_string(&mut text)?;
        let Some(records) = document_records(self.format, &text) else {
            // Caught mid-write: the next poll reads it again.
            return Ok(Vec::new());
        };
        self.document = Some(records.len().max(seen));
        Ok(records.into_iter().skip(seen).collect())
    }
}

/// The transcript file of an event's session: the one the payload names
/// ([`SessionInfo::transcript_path`](agenthooks_core::SessionInfo)), else the session file an
/// agent keeps without naming it ([`TranscriptFormat::locate`], reading variables through
/// `vars`: Kimi Code's). `None` when there is none.
pub fn locate(format: &dyn TranscriptFormat, envelope: &Envelope, vars: &dyn Env) -> Option<PathBuf> {
    if !envelope.session.transcript_path.is_empty() {
        return Some(PathBuf::from(&envelope.session.transcript_path));
    }
    format.locate(envelope, vars)
}

/// The transcript format of a codec's agent: its [`Codec::transcript`], else [`Untyped`].
pub fn format_of(codec: &dyn Codec) -> &'static dyn TranscriptFormat {
    codec.transcript().unwrap_or(&Untyped)
}

/// Opens the transcript of an event's session ([`locate`]) in its codec's format. `Ok(None)`
/// when the session has no transcript file.
///
/// ```
/// use agenthooks_runtime::transcript::{self, Item};
///
/// /// The prompts the user typed in the event's session so far.
/// fn prompts(codec: &dyn agenthooks_core::Codec, event: &agenthooks_core::Event) -> std::io::Result<Vec<String>> {
///     let Some(records) = transcript::open(codec, event, &agenthooks_core::ProcessEnv)? else {
///         return Ok(Vec::new());
///     };
///     let mut out = Vec::new();
///     for r in records {
///         for item in r?.items {
///             if let Item::UserPrompt { text } = item {
///                 out.push(text);
///             }
///         }
///     }
///     Ok(out)
/// }
/// ```
pub fn open(codec: &dyn Codec, event: &Event, vars: &dyn Env) -> io::Result<Option<Reader<BufReader<File>>>> {
    let format = format_of(codec);
    match locate(format, event.envelope(), vars) {
        Some(path) => Reader::open(format, path).map(Some),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthooks_core::kit::transcript::{meta, str_at};

    /// A JSON-document format in Gemini's shape (the readers' document mode).
    #[derive(Debug)]
    struct Doc;

    impl TranscriptFormat for Doc {
        fn classify(&self, v: &Value) -> (String, Vec<Item>) {
            let ty = str_at(v, "type").to_owned();
            let text = str_at(v, "content").to_owned();
            let items = match ty.as_str() {
                "user" => vec![Item::UserPrompt { text }],
                "gemini" => vec![Item::AssistantText { text }],
                "" if v.get("sessionId").is_some() => meta("session"),
                _ => Vec::new(),
            };
            (ty, items)
        }

        fn may_be_document(&self) -> bool {
            true
        }
    }

    #[test]
    fn buffer_counts_crlf_and_skips_blank_lines() {
        let mut b = LineBuffer::default();
        let lines = b.push(b"a\r\n\n  \nb\n");
        assert_eq!(lines, vec![(0, "a".to_owned()), (7, "b".to_owned())]);
        assert_eq!(b.offset(), 9);
        assert_eq!(b.finish(), None);
    }

    #[test]
    fn reader_keeps_non_json_and_unterminated_lines() {
        let recs: Vec<Record> = Reader::new(&Untyped, &b"not json\n{\"type\":\"x\"}"[..])
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(recs.len(), 2);
        assert!(recs[0].is_unknown());
        assert_eq!(recs[0].value(), &Value::Null);
        assert_eq!(recs[1].offset, 9);
        assert_eq!(recs[1].native_type, "x");
    }

    #[test]
    fn gemini_document_is_header_plus_messages() {
        let doc = "{\n  \"sessionId\": \"s\",\n  \"messages\": [\n    {\"type\": \"user\", \"content\": \"hi\"},\n    {\"type\": \"gemini\", \"content\": \"ok\"}\n  ]\n}\n";
        let recs: Vec<Record> = Reader::new(&Doc, doc.as_bytes()).collect::<Result<_, _>>().unwrap();
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[0].items, vec![Item::Meta { what: "session".into() }]);
        assert_eq!(recs[1].index(), Some(0));
        assert_eq!(recs[1].items, vec![Item::UserPrompt { text: "hi".into() }]);
        assert_eq!(recs[2].items, vec![Item::AssistantText { text: "ok".into() }]);
    }

    #[test]
    fn tail_follows_a_rewritten_gemini_document() {
        let path = std::env::temp_dir().join(format!("agenthooks-tail-gemini-{}.json", std::process::id()));
        let doc = |n: usize| {
            let msgs: Vec<String> = (0..n)
                .map(|i| format!("{{\"type\":\"user\",\"content\":\"p{i}\"}}"))
                .collect();
            format!("{{\n\"sessionId\":\"s\",\n\"messages\":[{}]\n}}", msgs.join(","))
        };
        let mut tail = Tail::open(&Doc, &path);
        std::fs::write(&path, doc(1)).unwrap();
        assert_eq!(tail.poll().unwrap().len(), 2);
        std::fs::write(&path, &doc(3)[..10]).unwrap();
        assert!(tail.poll().unwrap().is_empty(), "a half-written document waits");
        std::fs::write(&path, doc(3)).unwrap();
        let recs = tail.poll().unwrap();
        assert_eq!(
            recs.iter().map(Record::index).collect::<Vec<_>>(),
            vec![Some(1), Some(2)]
        );
        std::fs::remove_file(&path).unwrap();
    }
}
