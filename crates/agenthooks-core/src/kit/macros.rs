//! The `native_events!` table macro (see [`crate::kit`]).

/// Declares a provider's native events from one table: a common-fields block (every field an
/// `Option`, present on every event) and one row per native event with its facts and its own
/// fields. See [`crate::kit`] for an example and the tolerant-decoding rule.
///
/// Rows that carry the same fields share one list: `A(…).caps(…) | B(…) { fields }` declares
/// a struct for each, with the same fields.
///
/// A provider crate omits the names (`native_events! { /// doc  name_key …; common {…} events
/// {…} }`) and gets the naming contract's: enum `NativeEvent`, unknown struct `Unknown`, rows
/// `EVENTS`; `pub enum E; unknown U; rows R;` before `name_key` names them otherwise.
///
/// Generates:
/// - one struct per event: the common fields (with `#[serde(default, skip_serializing_if =
///   "Option::is_none")]` added), the event's fields, and an `extra` map of the keys the crate
///   does not know (captured in the same pass by [`Capture`](crate::kit::Capture), written back
///   flattened);
/// - the `unknown` struct (an event a newer release added: its `name`, the common fields and
///   `extra`);
/// - the enum (one variant per event plus `Other(unknown)`), serializing back to the payload
///   object, with `name()`, `kind()`, `row()`, `extra()`, one accessor per common field
///   (`Option<&T>`), and [`NativeEvents`](crate::kit::NativeEvents);
/// - [`FromNative`](crate::kit::FromNative) for every event struct;
/// - the `rows` table of [`EventRow`](crate::kit::EventRow)s: `Variant("wire", Kind, flags…)`
///   with flags `blocking` and `tool_matcher`, then any const modifiers (`.caps(…)`,
///   `.fail(…)`, `.identify(…)`, `.also(…)`, `.clamp_secs(…)`, `.may_async()`,
///   `.provider_only()`, `.secondary()`). Modifiers every row has are written once, as the
///   table's `defaults .clamp_secs(600).provider_only();` (after `name_key`), and applied
///   before each row's own.
///
/// Per-event fields follow the rules of [`native_record!`](crate::kit::native_record): an
/// `Option<T>` field gets `#[serde(default, skip_serializing_if = "Option::is_none")]`,
/// `write_null field: Option<T>` gets `#[serde(default)]` only (`None` written back as `null`),
/// any other field is required; a field's own `#[serde(…)]` attributes are kept.
///
/// The calling crate depends on `serde` and `serde_json`.
#[macro_export]
#[doc(hidden)] // documented at its path under `kit::`
macro_rules! native_events {
    // The naming contract's names (`docs/codec-guide.md`): `NativeEvent`, `Unknown`, `EVENTS`.
    (
        $(#[$emeta:meta])*
        name_key $name_key:expr;
        $(defaults $(. $dm:ident ( $($darg:expr),* ))* ;)?
        common $common:tt
        events $events:tt
    ) => {
        $crate::native_events! {
            $(#[$emeta])*
            pub enum NativeEvent;
            unknown Unknown;
            rows EVENTS;
            name_key $name_key;
            $(defaults $(. $dm ( $($darg),* ))* ;)?
            common $common
            events $events
        }
    };
    (
        $(#[$emeta:meta])*
        pub enum $Enum:ident;
        unknown $Unknown:ident;
        rows $ROWS:ident;
        name_key $name_key:expr;
        $(defaults $(. $dm:ident ( $($darg:expr),* ))* ;)?
        common $common:tt
        events { $($events:tt)* }
    ) => {
        $crate::__native_rows! {
            [[$(#[$emeta])*] $Enum $Unknown $ROWS [$name_key] [$($(. $dm ( $($darg),* ))*)?] $common]
            []
            $($events)*
        }
    };
}

/// Spells out rows that share one field list (`A(…) | B(…) { fields }`) as one row each, then
/// expands the table.
#[doc(hidden)]
#[macro_export]
macro_rules! __native_rows {
    ([$($head:tt)*] [$($rows:tt)*]) => {
        $crate::__native_events_impl! { $($head)* events { $($rows)* } }
    };
    (
        @group [$($head:tt)*] [$($rows:tt)*] $fields:tt [$( [$($row:tt)*] )+]
        $($rest:tt)*
    ) => {
        $crate::__native_rows! { [$($head)*] [$($rows)* $( $($row)* $fields )+] $($rest)* }
    };
    (
        [$($head:tt)*] [$($rows:tt)*]
        $( $(#[$vmeta:meta])* $Variant:ident ( $($facts:tt)* ) $(. $m:ident ( $($arg:tt)* ))* )|+
        { $($fields:tt)* }
        $($rest:tt)*
    ) => {
        $crate::__native_rows! {
            @group [$($head)*] [$($rows)*] { $($fields)* }
            [$( [$(#[$vmeta])* $Variant ( $($facts)* ) $(. $m ( $($arg)* ))*] )+]
            $($rest)*
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __native_events_impl {
    (
        [$(#[$emeta:meta])*] $Enum:ident $Unknown:ident $ROWS:ident [$name_key:expr]
        [$(. $dm:ident ( $($darg:expr),* ))*] $common:tt
        events {
            $(
                $(#[$vmeta:meta])*
                $Variant:ident ( $wire:literal, $kind:ident $(, $flag:ident)* $(,)? )
                    $(. $m:ident ( $($arg:expr),* ))*
                    { $($fields:tt)* }
            )*
        }
    ) => {
        $( $crate::__native_struct! { $common $(#[$vmeta])* $Variant { $($fields)* } } )*
        $crate::__native_unknown! { $common $Unknown }

        $(#[$emeta])*
        ///
        /// Serializing writes the payload object back (the event name is the payload's own).
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        #[allow(clippy::large_enum_variant)] // one value per hook process; boxing only adds noise
        pub enum $Enum {
            $(
                #[doc = concat!("`", $wire, "`: see [`", stringify!($Variant), "`].")]
                $Variant($Variant),
            )*
            /// An event this crate does not know (added by a newer release), or a known event
            /// whose identifying fields are missing: every key kept.
            Other($Unknown),
        }

        /// Every native event this crate knows, in reference order, with its facts.
        pub const $ROWS: &[$crate::kit::EventRow] = {
            /// The table's `defaults` (applied first: a row's own modifiers follow).
            const fn defaults(row: $crate::kit::EventRow) -> $crate::kit::EventRow {
                row $(.$dm($($darg),*))*
            }
            &[
                $(
                    defaults($crate::kit::EventRow::new($wire, $crate::kind::EventKind::$kind, false, false))
                        $(.$flag())*
                        $(.$m($($arg),*))*,
                )*
            ]
        };

        impl ::serde::Serialize for $Enum {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> ::std::result::Result<S::Ok, S::Error> {
                match self {
                    $( Self::$Variant(e) => ::serde::Serialize::serialize(e, s), )*
                    Self::Other(e) => ::serde::Serialize::serialize(e, s),
                }
            }
        }

        impl $Enum {
            /// The payload key that carries the event name, when the dialect has one.
            pub const NAME_KEY: ::std::option::Option<&'static str> = $name_key;
        }

        impl $crate::kit::NativeEvents for $Enum {
            const ROWS: &'static [$crate::kit::EventRow] = $ROWS;
            const NAME_KEY: ::std::option::Option<&'static str> = $name_key;

            fn deserialize_named<'de, D: ::serde::Deserializer<'de>>(
                name: &str,
                de: D,
            ) -> ::std::result::Result<Self, D::Error> {
                match name {
                    $( $wire => <$Variant as ::serde::Deserialize>::deserialize(de).map(Self::$Variant), )*
                    _ => Self::deserialize_other(name, de),
                }
            }

            fn deserialize_other<'de, D: ::serde::Deserializer<'de>>(
                name: &str,
                de: D,
            ) -> ::std::result::Result<Self, D::Error> {
                <$Unknown as ::serde::Deserialize>::deserialize(de).map(|mut u| {
                    name.clone_into(&mut u.name);
                    Self::Other(u)
                })
            }

            fn name(&self) -> &str {
                $Enum::name(self)
            }

            fn extra_mut(&mut self) -> &mut $crate::kit::Extra {
                match self {
                    $( Self::$Variant(e) => &mut e.extra, )*
                    Self::Other(e) => &mut e.extra,
                }
            }
        }

        impl $Enum {
            /// Decodes one payload tolerantly (see [`agenthooks_core::kit::decode`]).
            ///
            /// # Errors
            ///
            /// Malformed JSON, trailing data, not an object, or no event name.
            pub fn decode(
                provider: &$crate::provider::Provider,
                bytes: &[u8],
                hint: ::std::option::Option<&str>,
            ) -> ::std::result::Result<$crate::kit::Decoded<Self>, $crate::error::DecodeError> {
                $crate::kit::decode::<Self>(provider, bytes, hint)
            }

            /// The native event name.
            pub fn name(&self) -> &str {
                match self {
                    $( Self::$Variant(_) => $wire, )*
                    Self::Other(e) => &e.name,
                }
            }

            /// The row of this event (`None` for [`Self::Other`] of an unknown name).
            pub fn row(&self) -> ::std::option::Option<&'static $crate::kit::EventRow> {
                $crate::kit::row($ROWS, self.name())
            }

            /// The unified kind ([`EventKind::Other`](agenthooks_core::EventKind::Other) for
            /// unknown events).
            pub fn kind(&self) -> $crate::kind::EventKind {
                self.row().map_or($crate::kind::EventKind::Other, |r| r.kind)
            }

            /// Keys this crate does not know: the struct's `extra`.
            pub fn extra(&self) -> &$crate::kit::Extra {
                match self {
                    $( Self::$Variant(e) => &e.extra, )*
                    Self::Other(e) => &e.extra,
                }
            }
        }

        $crate::__native_accessors! { $common $Enum [$($Variant)* Other] }

        $(
            impl $crate::kit::FromNative<$Enum> for $Variant {
                const NAME: &'static str = $wire;

                fn from_native(event: &$Enum) -> ::std::option::Option<&Self> {
                    match event {
                        $Enum::$Variant(e) => Some(e),
                        _ => None,
                    }
                }
            }
        )*
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __native_struct {
    (
        { $( $(#[$cmeta:meta])* $cfield:ident : Option<$cty:ty> ),* $(,)? }
        $(#[$meta:meta])*
        $name:ident { $($fields:tt)* }
    ) => {
        $crate::__native_fields! {
            [$(#[$meta])*] $name
            [$( $(#[$cmeta])* #[serde(default, skip_serializing_if = "Option::is_none")] pub $cfield: Option<$cty>, )*]
            $($fields)*
        }
    };
}

/// Declares one tolerant native record: a struct of a payload's nested object (or a frame part)
/// with the same field rules as the per-event structs of [`native_events!`](crate::kit::native_events).
///
/// Generates the struct with `Debug, Clone, PartialEq, Serialize, Deserialize`,
/// `#[non_exhaustive]`, every field `pub`, and an `extra` map last (keys this crate does not
/// know, captured in wire order by [`Capture`](crate::kit::Capture) and written back). Field rules (shared with the event
/// structs):
///
/// - a field typed `Option<T>` gets `#[serde(default, skip_serializing_if = "Option::is_none")]`
///   (absent decodes as `None`, `None` is not written back);
/// - `write_null field: Option<T>` gets `#[serde(default)]` only: a field the agent always sends,
///   whose `None` is written back as `null`;
/// - any other field is required and passed as written;
/// - a field's own `#[serde(…)]` attributes (`rename`, `alias`, `deserialize_with`) are kept.
///
/// ```
/// agenthooks_core::kit::native_record! {
///     /// A model reference.
///     pub struct ModelRef {
///         /// The provider (identifying).
///         provider: String,
///         /// The model id.
///         #[serde(rename = "modelID")]
///         model_id: Option<String>,
///         /// The variant (`null` when none; always sent).
///         write_null variant: Option<String>,
///     }
/// }
/// let m: ModelRef = serde_json::from_str(r#"{"provider":"p","variant":null,"new":1}"#)?;
/// assert_eq!((m.provider.as_str(), m.model_id.as_deref(), m.extra["new"].as_i64()), ("p", None, Some(1)));
/// assert_eq!(serde_json::to_string(&m)?, r#"{"provider":"p","variant":null,"new":1}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// The calling crate depends on `serde` and `serde_json`.
#[macro_export]
#[doc(hidden)] // documented at its path under `kit::`
macro_rules! native_record {
    ( $(#[$meta:meta])* pub struct $name:ident { $($fields:tt)* } ) => {
        $crate::__native_fields! { [$(#[$meta])*] $name [] $($fields)* }
    };
}

/// The field muncher behind [`native_record!`] and the per-event structs: one field at a time,
/// the lenient serde attributes added by the field's form (see [`native_record!`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __native_fields {
    ([$($meta:tt)*] $name:ident [$($out:tt)*]) => {
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        $($meta)*
        #[serde(remote = "Self")]
        #[non_exhaustive]
        pub struct $name {
            $($out)*
            /// Keys of the payload this crate does not know, in wire order.
            #[serde(flatten, skip_deserializing)]
            pub extra: $crate::kit::Extra,
        }
        $crate::__native_capture! { $name }
    };
    (
        [$($meta:tt)*] $name:ident [$($out:tt)*]
        $(#[$fmeta:meta])* write_null $field:ident : Option<$fty:ty> $(, $($rest:tt)*)?
    ) => {
        $crate::__native_fields! {
            [$($meta)*] $name
            [$($out)* $(#[$fmeta])* #[serde(default)] pub $field: Option<$fty>,]
            $($($rest)*)?
        }
    };
    (
        [$($meta:tt)*] $name:ident [$($out:tt)*]
        $(#[$fmeta:meta])* $field:ident : Option<$fty:ty> $(, $($rest:tt)*)?
    ) => {
        $crate::__native_fields! {
            [$($meta)*] $name
            [$($out)* $(#[$fmeta])* #[serde(default, skip_serializing_if = "Option::is_none")] pub $field: Option<$fty>,]
            $($($rest)*)?
        }
    };
    (
        [$($meta:tt)*] $name:ident [$($out:tt)*]
        $(#[$fmeta:meta])* $field:ident : $fty:ty $(, $($rest:tt)*)?
    ) => {
        $crate::__native_fields! {
            [$($meta)*] $name
            [$($out)* $(#[$fmeta])* pub $field: $fty,]
            $($($rest)*)?
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __native_unknown {
    (
        { $( $(#[$cmeta:meta])* $cfield:ident : Option<$cty:ty> ),* $(,)? }
        $name:ident
    ) => {
        /// An event this crate does not know: its name, the common fields and every other key.
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(remote = "Self")]
        #[non_exhaustive]
        pub struct $name {
            /// The native event name (from the payload or the `--event` hint).
            #[serde(skip)]
            pub name: String,
            $(
                $(#[$cmeta])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $cfield: Option<$cty>,
            )*
            /// Every other key of the payload, in wire order.
            #[serde(flatten, skip_deserializing)]
            pub extra: $crate::kit::Extra,
        }
        $crate::__native_capture! { $name }
    };
}

/// The serde impls of a native struct derived with `#[serde(remote = "Self")]` (the derived
/// code becomes inherent functions, so deserialize through the trait — `serde_json::from_*`,
/// `<T as Deserialize>::deserialize` — not `T::deserialize`, which skips the capture):
/// deserializing goes through
/// [`Capture`](crate::kit::Capture), which fills `extra` in the same pass (no `flatten`
/// buffering of the whole object); serializing writes the fields, then `extra` flattened.
#[doc(hidden)]
#[macro_export]
macro_rules! __native_capture {
    ($name:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(de: D) -> ::std::result::Result<Self, D::Error> {
                let mut extra = $crate::kit::Extra::new();
                let mut v = $name::deserialize($crate::kit::Capture::new(de, &mut extra))?;
                v.extra = extra;
                ::std::result::Result::Ok(v)
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> ::std::result::Result<S::Ok, S::Error> {
                $name::serialize(self, s)
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __native_accessors {
    (
        { $( $(#[$cmeta:meta])* $cfield:ident : Option<$cty:ty> ),* $(,)? }
        $Enum:ident $variants:tt
    ) => {
        $( $crate::__native_accessor! { $Enum $cfield $cty $variants } )*
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __native_accessor {
    ($Enum:ident $cfield:ident $cty:ty [$($Variant:ident)*]) => {
        impl $Enum {
            #[doc = concat!("`", stringify!($cfield), "`, whatever the event (a common field).")]
            pub fn $cfield(&self) -> ::std::option::Option<&$cty> {
                match self {
                    $( Self::$Variant(e) => e.$cfield.as_ref(), )*
                }
            }
        }
    };
}

/// The table-backed [`Codec`](crate::Codec) methods every kit codec writes the same way, expanded
/// inside its `impl Codec` block: `native_events` (the `native_events!` rows), `name_key` (the
/// enum's `NAME_KEY`), `tools` (the provider's [`ToolTable`](crate::kit::ToolTable)),
/// `native_extra` (the native view's `extra`, through the crate's `view`) and, when given,
/// `quirks` (the crate's [`quirk_table!`](crate::kit::quirk_table)) and `default_timeout`.
///
/// Without arguments it reads the naming contract's paths: `crate::native::{EVENTS,
/// NativeEvent}`, `crate::tools::TOOLS`, `crate::view`, `crate::quirks::QUIRKS`, and the codec
/// module's `DEFAULT_TIMEOUT`; `kit_codec_tables!(provider: P)` also writes `provider`,
/// `kit_codec_tables!(provider: P, mcp: crate::mcp_config::load)` also `mcp_loader`, and a
/// trailing `transcript: crate::transcript::TRANSCRIPT` also `transcript` (an agent that writes
/// a session transcript). `mcp` and `transcript` without a path name the contract's:
/// `kit_codec_tables!(provider: P, mcp, transcript)`.
///
/// ```ignore
/// impl Codec for MyCodec {
///     agenthooks_core::kit::kit_codec_tables!(provider: Provider::from_static("toy")); // or, naming each:
///     agenthooks_core::kit::kit_codec_tables!(
///         events: native::EVENTS, native: NativeEvent, tools: tools::TOOLS, view: crate::view,
///         quirks: quirks::QUIRKS, timeout: DEFAULT_TIMEOUT,
///     );
///     // provider, decode, encode, …
/// }
/// ```
#[macro_export]
#[doc(hidden)] // documented at its path under `kit::`
#[allow(clippy::crate_in_macro_def)] // the no-argument form names the calling crate's own modules
macro_rules! kit_codec_tables {
    // The contract's MCP reader and transcript format (`mcp_config::load`, `transcript::TRANSCRIPT`).
    (provider: $provider:expr, mcp, transcript $(,)?) => {
        $crate::kit_codec_tables!(
            provider: $provider,
            mcp: crate::mcp_config::load,
            transcript: crate::transcript::TRANSCRIPT,
        );
    };
    // The contract's MCP reader.
    (provider: $provider:expr, mcp $(,)?) => {
        $crate::kit_codec_tables!(provider: $provider, mcp: crate::mcp_config::load);
    };
    // The agent's transcript format (`Codec::transcript`), then as below.
    (provider: $provider:expr, mcp: $loader:path, transcript: $transcript:path $(,)?) => {
        fn transcript(
            &self,
        ) -> ::std::option::Option<&'static dyn $crate::kit::transcript::TranscriptFormat> {
            ::std::option::Option::Some(&$transcript)
        }

        $crate::kit_codec_tables!(provider: $provider, mcp: $loader);
    };
    // `provider` and the MCP config reader (`Codec::mcp_loader`), then as below.
    (provider: $provider:expr, mcp: $loader:path $(,)?) => {
        fn mcp_loader(&self) -> ::std::option::Option<$crate::mcp::McpLoader> {
            ::std::option::Option::Some($loader)
        }

        $crate::kit_codec_tables!(provider: $provider);
    };
    // `provider` too, then the naming contract's paths.
    (provider: $provider:expr $(,)?) => {
        fn provider(&self) -> $crate::provider::Provider {
            $provider
        }

        $crate::kit_codec_tables!();
    };
    // The naming contract's paths (`docs/codec-guide.md`), with `DEFAULT_TIMEOUT` in scope.
    () => {
        $crate::kit_codec_tables!(
            events: crate::native::EVENTS, native: crate::native::NativeEvent, tools: crate::tools::TOOLS,
            view: crate::view, quirks: crate::quirks::QUIRKS, timeout: DEFAULT_TIMEOUT,
        );
    };
    (
        events: $events:expr, native: $Native:ty, tools: $tools:expr, view: $view:path,
        quirks: $quirks:expr, timeout: $timeout:expr $(,)?
    ) => {
        $crate::kit_codec_tables!(events: $events, native: $Native, tools: $tools, view: $view);

        fn quirks(&self) -> &'static [$crate::quirks::Quirk] {
            $quirks
        }

        fn default_timeout(&self) -> ::std::time::Duration {
            $timeout
        }
    };
    (events: $events:expr, native: $Native:ty, tools: $tools:expr, view: $view:path $(,)?) => {
        fn native_events(&self) -> &'static [$crate::kit::EventRow] {
            $events
        }

        fn name_key(&self) -> ::std::option::Option<&'static str> {
            <$Native>::NAME_KEY
        }

        fn tools(&self) -> ::std::option::Option<&'static $crate::kit::ToolTable> {
            ::std::option::Option::Some(&$tools)
        }

        fn native_extra<'a>(&self, envelope: &'a $crate::event::Envelope) -> ::std::option::Option<&'a $crate::kit::Extra> {
            $view(envelope).map(<$Native>::extra)
        }
    };
}

/// A provider crate's quirk table, one entry per quirk, checked at compile time with
/// [`quirk_table_ok`](crate::kit::quirk_table_ok) (ids sorted and in the crate's range or among
/// the design-numbered ids it owns, every entry the provider's own, texts not empty).
///
/// An entry is `id { behaviour, mitigation, key value, … }`: the two required texts of
/// [`Quirk::new`](crate::Quirk::new), then any of its setters by name: `versions "…"`,
/// `events ["…", …]`, `capabilities [Deny, …]` ([`Capability`](crate::Capability) variants),
/// `upstream "…"`, `correction "…"`, `status Open` (a [`QuirkStatus`](crate::QuirkStatus)
/// variant).
///
/// ```
/// use agenthooks_core::{Capability, Quirk, QuirkStatus};
///
/// static QUIRKS: &[Quirk] = agenthooks_core::kit::quirk_table! {
///     provider "toy";
///     ids 900..1000 + [26];
///     26 {
///         "The toy names MCP tools oddly.",
///         "The tool table parses both spellings.",
///     }
///     901 {
///         "A deny needs a reason.",
///         "The codec always writes one.",
///         events ["before_tool"],
///         capabilities [Deny],
///         status Unverified,
///         upstream "toy docs §3",
///     }
/// };
/// assert_eq!(QUIRKS[1].capabilities, [Capability::Deny]);
/// assert_eq!((QUIRKS[1].events, QUIRKS[1].status), (&["before_tool"][..], QuirkStatus::Unverified));
/// assert!(QUIRKS.iter().all(|q| q.affects("toy")));
/// ```
///
/// A table out of order (or out of range) does not build:
///
/// ```compile_fail
/// static QUIRKS: &[agenthooks_core::Quirk] = agenthooks_core::kit::quirk_table! {
///     provider "toy";
///     ids 900..1000;
///     902 { "b", "m" }
///     901 { "b", "m" }
/// };
/// ```
#[macro_export]
#[doc(hidden)] // documented at its path under `kit::`
macro_rules! quirk_table {
    (
        provider $provider:literal;
        ids $lo:literal .. $hi:literal $(+ [$($own:literal),* $(,)?])?;
        $( $id:literal { $behaviour:literal, $mitigation:literal $(, $($set:tt)*)? } )*
    ) => {{
        const TABLE: &[$crate::quirks::Quirk] = &[
            $( $crate::__quirk_set!($crate::quirks::Quirk::new($id, &[$provider], $behaviour, $mitigation); $($($set)*)?) ),*
        ];
        const _: () = assert!(
            $crate::kit::quirk_table_ok(TABLE, $provider, $lo, $hi, &[$($($own),*)?]),
            concat!("malformed ", $provider, " quirk table (id order or range, provider, empty text)"),
        );
        TABLE
    }};
}

/// The setters of one [`quirk_table!`] entry, applied in order.
#[doc(hidden)]
#[macro_export]
macro_rules! __quirk_set {
    ($q:expr;) => { $q };
    ($q:expr; capabilities [$($cap:ident),* $(,)?] $(, $($rest:tt)*)?) => {
        $crate::__quirk_set!($q.capabilities(&[$($crate::capability::Capability::$cap),*]); $($($rest)*)?)
    };
    ($q:expr; events [$($event:literal),* $(,)?] $(, $($rest:tt)*)?) => {
        $crate::__quirk_set!($q.events(&[$($event),*]); $($($rest)*)?)
    };
    ($q:expr; status $status:ident $(, $($rest:tt)*)?) => {
        $crate::__quirk_set!($q.status($crate::quirks::QuirkStatus::$status); $($($rest)*)?)
    };
    ($q:expr; $setter:ident $text:literal $(, $($rest:tt)*)?) => {
        $crate::__quirk_set!($q.$setter($text); $($($rest)*)?)
    };
}

/// A provider crate's root items, the ones the naming contract (`docs/codec-guide.md`) asks of
/// every provider crate and that read the same in each: the `CODEC` static the facade registers,
/// the `DecodeError` re-export, and `view` / `view_as`, the native view behind an event the
/// crate decoded. Written once, at the crate root (`lib.rs`), after the `pub mod` lines.
///
/// `codec C;` makes `pub static CODEC: C = C::new();` (`codec C = expr;` another value); the
/// doc comments before it document the static. `view` reads `crate::native::NativeEvent` from
/// the envelope; a codec that stores a wrapper type instead writes `view via W => field;` (the
/// wrapper `W`, and its field holding the `NativeEvent`). Doc comments inside an optional
/// `view { … }` / `view_as { … }` are appended to those functions' docs (a crate's own
/// examples).
///
/// ```ignore
/// // lib.rs of a provider crate
/// pub mod codec;
/// pub mod native;
///
/// pub use codec::ToyCodec;
/// pub use native::NativeEvent;
///
/// agenthooks_core::kit::provider_surface! {
///     /// The codec the facade registers for `--provider=toy`.
///     codec ToyCodec;
/// }
/// ```
///
/// What a crate gets, for a toy provider:
///
/// ```
/// mod native {
///     agenthooks_core::kit::native_events! {
///         /// A toy payload.
///         name_key Some("event");
///         common {}
///         events {
///             /// The session ended.
///             SessionEnd("session_end", SessionEnd) {}
///         }
///     }
/// }
///
/// /// The toy codec.
/// #[derive(Debug)]
/// pub struct ToyCodec;
///
/// impl ToyCodec {
///     /// The codec.
///     pub const fn new() -> Self {
///         Self
///     }
/// }
///
/// agenthooks_core::kit::provider_surface! {
///     /// The toy codec the facade would register.
///     codec ToyCodec;
/// }
///
/// fn main() {
///     let _: &ToyCodec = &CODEC;
///     let _: fn(&agenthooks_core::Envelope) -> Option<&native::NativeEvent> = view;
///     let _: fn(&agenthooks_core::Envelope) -> Option<&native::SessionEnd> = view_as::<native::SessionEnd>;
///     let _: fn(&DecodeError) -> String = |e| e.to_string();
/// }
/// ```
#[macro_export]
#[doc(hidden)] // documented at its path under `kit::`
#[allow(clippy::crate_in_macro_def)] // the items name the calling crate's own `native` module
macro_rules! provider_surface {
    (
        $(#[$codec_doc:meta])* codec $Codec:ident $(= $init:expr)?;
        $(view via $View:ty => $field:ident;)?
        $(view { $(#[$view_doc:meta])* })?
        $(view_as { $(#[$view_as_doc:meta])* })?
    ) => {
        $(#[$codec_doc])*
        pub static CODEC: $Codec = $crate::__provider_codec_init!($Codec $(, $init)?);

        /// The native decode error: the provider kit's (no crate-local error type).
        pub use $crate::DecodeError;

        /// The native payload behind an event this crate decoded (`None` for events of other
        /// providers).
        $($(#[$view_doc])*)?
        pub fn view(envelope: &$crate::Envelope) -> ::std::option::Option<&crate::native::NativeEvent> {
            $crate::__provider_view!(envelope $(, $View => $field)?)
        }

        /// The native struct of one event, when the envelope holds that event:
        /// `view_as::<native::SomeEvent>(e.envelope())`.
        $($(#[$view_as_doc])*)?
        pub fn view_as<T: $crate::kit::FromNative<crate::native::NativeEvent>>(
            envelope: &$crate::Envelope,
        ) -> ::std::option::Option<&T> {
            view(envelope).and_then(T::from_native)
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __provider_codec_init {
    ($Codec:ident) => {
        $Codec::new()
    };
    ($Codec:ident, $init:expr) => {
        $init
    };
}

#[doc(hidden)]
#[macro_export]
#[allow(clippy::crate_in_macro_def)] // the calling crate's `native` module
macro_rules! __provider_view {
    ($envelope:ident) => {
        $envelope.native_view::<crate::native::NativeEvent>()
    };
    ($envelope:ident, $View:ty => $field:ident) => {
        $envelope.native_view::<$View>().map(|v| &v.$field)
    };
}
