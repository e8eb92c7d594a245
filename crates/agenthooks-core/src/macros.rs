//! Declaration macros for the plain parts of public types, shared by this crate and the
//! crates built on it: [`named_enum!`](crate::kit::named_enum) (a closed enum and its stable
//! names, from one list) and [`setters!`](crate::kit::setters) (builder setters, one line each).
//! Both are documented at their path under [`kit`](crate::kit), beside the codec macros.

/// Declares a closed enum whose variants each have a stable name: the enum, `as_str` and
/// [`Display`](std::fmt::Display) come from one list of `Variant => "name"`, so a name cannot
/// drift from its variant (or be forgotten for a new one).
///
/// Attributes and docs pass through to the enum and to each variant.
///
/// ```
/// agenthooks_core::kit::named_enum! {
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
#[doc(hidden)] // documented at its path under `kit::`
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

/// Builder setters: `with_…` methods that each set one field and return `self` (`#[must_use]`).
///
/// Each line is `name(field: Type);` and sets `self.field = field`; `impl Into<T>` converts
/// with `.into()`, and a trailing `=> Some` stores the value in an `Option` field. A line
/// starting with `const` writes a `const fn` (no `impl Into`), and `const name() => field =
/// value;` a setter without argument (a flag).
///
/// ```
/// #[derive(Default)]
/// pub struct Config {
///     name: String,
///     retries: u32,
///     home: Option<std::path::PathBuf>,
/// }
///
/// agenthooks_core::kit::setters! {
///     impl Config {
///         /// Sets the name.
///         with_name(name: impl Into<String>);
///         /// Sets the retry count.
///         with_retries(retries: u32);
///         /// Sets the home directory.
///         with_home(home: impl Into<std::path::PathBuf>) => Some;
///     }
/// }
///
/// let c = Config::default().with_name("x").with_retries(3).with_home("/h");
/// assert_eq!((c.name.as_str(), c.retries), ("x", 3));
/// assert_eq!(c.home.as_deref(), Some(std::path::Path::new("/h")));
/// ```
#[macro_export]
#[doc(hidden)] // documented at its path under `kit::`
macro_rules! setters {
    (impl<$lt:lifetime> $ty:ty { $($body:tt)* }) => {
        impl<$lt> $ty {
            $crate::setters!(@fns $($body)*);
        }
    };
    (impl $ty:ty { $($body:tt)* }) => {
        impl $ty {
            $crate::setters!(@fns $($body)*);
        }
    };
    (@fns) => {};
    (@fns $(#[$m:meta])* const $name:ident() => $field:ident = $value:expr; $($rest:tt)*) => {
        $(#[$m])*
        #[must_use]
        pub const fn $name(mut self) -> Self {
            self.$field = $value;
            self
        }
        $crate::setters!(@fns $($rest)*);
    };
    (@fns $(#[$m:meta])* const $name:ident($field:ident: $t:ty) => Some; $($rest:tt)*) => {
        $(#[$m])*
        #[must_use]
        pub const fn $name(mut self, $field: $t) -> Self {
            self.$field = Some($field);
            self
        }
        $crate::setters!(@fns $($rest)*);
    };
    (@fns $(#[$m:meta])* const $name:ident($field:ident: $t:ty); $($rest:tt)*) => {
        $(#[$m])*
        #[must_use]
        pub const fn $name(mut self, $field: $t) -> Self {
            self.$field = $field;
            self
        }
        $crate::setters!(@fns $($rest)*);
    };
    (@fns $(#[$m:meta])* $name:ident($field:ident: impl Into<$t:ty>) => Some; $($rest:tt)*) => {
        $(#[$m])*
        #[must_use]
        pub fn $name(mut self, $field: impl Into<$t>) -> Self {
            self.$field = Some($field.into());
            self
        }
        $crate::setters!(@fns $($rest)*);
    };
    (@fns $(#[$m:meta])* $name:ident($field:ident: impl Into<$t:ty>); $($rest:tt)*) => {
        $(#[$m])*
        #[must_use]
        pub fn $name(mut self, $field: impl Into<$t>) -> Self {
            self.$field = $field.into();
            self
        }
        $crate::setters!(@fns $($rest)*);
    };
    (@fns $(#[$m:meta])* $name:ident($field:ident: $t:ty) => Some; $($rest:tt)*) => {
        $(#[$m])*
        #[must_use]
        pub fn $name(mut self, $field: $t) -> Self {
            self.$field = Some($field);
            self
        }
        $crate::setters!(@fns $($rest)*);
    };
    (@fns $(#[$m:meta])* $name:ident($field:ident: $t:ty); $($rest:tt)*) => {
        $(#[$m])*
        #[must_use]
        pub fn $name(mut self, $field: $t) -> Self {
            self.$field = $field;
            self
        }
        $crate::setters!(@fns $($rest)*);
    };
}
