//! The naming contract of a provider crate (`docs/codec-guide.md`), checked.
//!
//! [`assert_provider_surface!`](crate::assert_provider_surface) names every item the contract
//! requires, with its type, so a crate that drifts from the contract fails to compile, and
//! checks at run time that the codec reports the crate's own tables.

/// Checks one provider crate's surface: `native::{NativeEvent, Unknown, EVENTS}`,
/// `tools::{TOOLS, classify, parse_mcp}`, `view`, `view_as`, `CODEC`, `DecodeError` (the core's
/// decode error), `quirks::QUIRKS`; and that `CODEC.native_events()` is `native::EVENTS`,
/// `CODEC.tools()` is `tools::TOOLS` and `CODEC.name_key()` is `NativeEvent::NAME_KEY`.
///
/// ```ignore
/// agenthooks_testkit::assert_provider_surface!(agenthooks_claude);
/// ```
#[macro_export]
macro_rules! assert_provider_surface {
    ($($krate:ident)::+) => {{
        use $crate::__core::Codec as _;
        // Compile-time: every item exists with the contract's type.
        let _: ::std::option::Option<&$($krate)::+::native::NativeEvent> = None;
        let _: ::std::option::Option<&$($krate)::+::native::Unknown> = None;
        let rows: &'static [$crate::__core::EventRow] = $($krate)::+::native::EVENTS;
        let tools: &'static $crate::__core::ToolTable = &$($krate)::+::tools::TOOLS;
        let _ = $($krate)::+::tools::classify;
        let _ = $($krate)::+::tools::parse_mcp;
        let _: fn(&$crate::__core::Envelope) -> ::std::option::Option<&$($krate)::+::native::NativeEvent> =
            $($krate)::+::view;
        let _: fn($($krate)::+::DecodeError) -> $crate::__core::DecodeError = |e| e;
        let _: &'static [$crate::__core::Quirk] = $($krate)::+::quirks::QUIRKS;
        let codec: &'static dyn $crate::__core::Codec = &$($krate)::+::CODEC;
        // Run time: the codec reports the crate's own tables.
        assert!(
            codec.native_events() == rows,
            "{}: CODEC.native_events() is not native::EVENTS",
            codec.provider()
        );
        assert!(
            codec.tools().is_some_and(|t| ::std::ptr::eq(t, tools)),
            "{}: CODEC.tools() is not tools::TOOLS",
            codec.provider()
        );
        assert_eq!(
            codec.name_key(),
            $($krate)::+::native::NativeEvent::NAME_KEY,
            "{}: CODEC.name_key() differs from the table's",
            codec.provider()
        );
        let mut names: ::std::vec::Vec<&str> = rows.iter().map(|r| r.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "{}: a native event has two rows", codec.provider());
        for row in rows {
            assert_eq!(codec.row(row.name), Some(row), "{}: row of {}", codec.provider(), row.name);
            assert_eq!(codec.kind_of(row.name), row.kind, "{}: kind of {}", codec.provider(), row.name);
        }
    }};
}
