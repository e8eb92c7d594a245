//! Read access to environment variables: the [`Env`] a codec, a transcript format or the runner
//! reads instead of `std::env`, so tests (and the runner's own invocations) can hand in a map.

use std::collections::HashMap;

/// Read access to environment variables (the process env, or a map in tests).
pub trait Env: Send + Sync {
    /// The value of a variable.
    fn var(&self, name: &str) -> Option<String>;
}

/// The real process environment.
#[derive(Debug, Clone, Copy, Default)]
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

impl<S: std::hash::BuildHasher + Send + Sync> Env for HashMap<String, String, S> {
    fn var(&self, name: &str) -> Option<String> {
        self.get(name).cloned()
    }
}

impl<const N: usize> Env for [(&str, &str); N] {
    fn var(&self, name: &str) -> Option<String> {
        self.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned())
    }
}

impl Env for Vec<(String, String)> {
    fn var(&self, name: &str) -> Option<String> {
        self.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }
}
