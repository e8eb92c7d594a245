//! [`named_enum!`](crate::named_enum): a closed enum and its stable names, from one list.

/// Declares a closed enum whose variants each have a stable name: the enum, `as_str` and
/// [`Display`](std::fmt::Display) come from one list of `Variant => "name"`, so a name cannot
/// drift from its variant (or be forgotten for a new one).
///
/// Attributes and docs pass through to the enum and to each variant.
///
/// ```
/// agenthooks_core::named_enum! {
///     /// How loud.
///     #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
///     pub enum Volume {
///         /// Barely.
///         #[default]
///         Quiet => "quiet",
///         /// Very.
///         VeryLoud => "very-loud",
///     }
/// }
/// assert_eq!(Volume::VeryLoud.as_str(), "very-loud");
/// assert_eq!(Volume::default().to_string(), "quiet");
/// ```
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $str:literal, )+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        impl $name {
            /// The stable kebab-case name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $str, )+
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
