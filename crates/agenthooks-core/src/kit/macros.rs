//! The `native_events!` table macro (see [`crate::kit`]).

/// Declares a provider's native events from one table: a common-fields block (every field an
/// `Option`, present on every event) and one row per native event with its facts and its own
/// fields. See [`crate::kit`] for an example and the tolerant-decoding rule.
///
/// Generates:
/// - one struct per event: the common fields (with `#[serde(default, skip_serializing_if =
///   "Option::is_none")]` added), the event's fields, and a flattened `extra` map;
/// - the `unknown` struct (an event a newer release added: its `name`, the common fields and
///   `extra`);
/// - the enum (one variant per event plus `Other(unknown)`), serializing back to the payload
///   object, with `name()`, `kind()`, `row()`, `extra()`, one accessor per common field
///   (`Option<&T>`), and [`NativeEvents`](crate::kit::NativeEvents);
/// - [`FromNative`](crate::kit::FromNative) for every event struct;
/// - the `rows` table of [`EventRow`](crate::kit::EventRow)s: `Variant("wire", Kind, flags…)`
///   with flags `blocking` and `tool_matcher`, then any const modifiers (`.caps(…)`,
///   `.fail(…)`, `.identify(…)`, `.also(…)`, `.clamp_secs(…)`, `.may_async()`,
///   `.provider_only()`, `.secondary()`).
///
/// Per-event `Option` fields need their own `#[serde(default, skip_serializing_if =
/// "Option::is_none")]` (the macro cannot tell an `Option` among arbitrary field types).
///
/// The calling crate depends on `serde` and `serde_json`.
#[macro_export]
macro_rules! native_events {
    (
        $(#[$emeta:meta])*
        pub enum $Enum:ident;
        unknown $Unknown:ident;
        rows $ROWS:ident;
        name_key $name_key:expr;
        common $common:tt
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
        pub const $ROWS: &[$crate::kit::EventRow] = &[
            $(
                $crate::kit::EventRow::new($wire, $crate::EventKind::$kind, false, false)
                    $(.$flag())*
                    $(.$m($($arg),*))*,
            )*
        ];

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
                provider: &$crate::Provider,
                bytes: &[u8],
                hint: ::std::option::Option<&str>,
            ) -> ::std::result::Result<$crate::kit::Decoded<Self>, $crate::DecodeError> {
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
            pub fn kind(&self) -> $crate::EventKind {
                self.row().map_or($crate::EventKind::Other, |r| r.kind)
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
        $name:ident { $( $(#[$fmeta:meta])* $field:ident : $fty:ty ),* $(,)? }
    ) => {
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        $(#[$meta])*
        #[non_exhaustive]
        pub struct $name {
            $(
                $(#[$cmeta])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $cfield: Option<$cty>,
            )*
            $( $(#[$fmeta])* pub $field: $fty, )*
            /// Keys of the payload this crate does not know, in wire order.
            #[serde(flatten)]
            pub extra: $crate::kit::Extra,
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
            #[serde(flatten)]
            pub extra: $crate::kit::Extra,
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
