//! The compile-time check behind [`quirk_table!`](crate::kit::quirk_table).

use crate::quirks::Quirk;

/// Whether a provider crate's quirk table is well formed: ids strictly increasing (sorted, none
/// twice), each in `lo..hi` or among `owned` (design-numbered entries the crate owns), every
/// entry affecting `provider` alone, and each naming its behaviour and mitigation.
///
/// [`quirk_table!`](crate::kit::quirk_table) asserts it at compile time, so a malformed table does
/// not build.
///
/// ```
/// use agenthooks_core::{kit::quirk_table_ok, Quirk};
/// let t = [Quirk::new(26, &["toy"], "b", "m"), Quirk::new(901, &["toy"], "b", "m")];
/// assert!(quirk_table_ok(&t, "toy", 900, 1000, &[26]));
/// assert!(!quirk_table_ok(&t, "toy", 900, 1000, &[])); // 26 is outside the range
/// assert!(!quirk_table_ok(&[t[1], t[0]], "toy", 900, 1000, &[26])); // not sorted
/// assert!(!quirk_table_ok(&t, "other", 900, 1000, &[26]));
/// ```
#[must_use]
pub const fn quirk_table_ok(quirks: &[Quirk], provider: &str, lo: u16, hi: u16, owned: &[u16]) -> bool {
    let mut i = 0;
    while i < quirks.len() {
        let q = &quirks[i];
        let in_range = (q.id >= lo && q.id < hi) || contains(owned, q.id);
        let sorted = i == 0 || quirks[i - 1].id < q.id;
        let only_provider = q.providers.len() == 1 && same(q.providers[0], provider);
        if !(in_range && sorted && only_provider) || q.behaviour.is_empty() || q.mitigation.is_empty() {
            return false;
        }
        i += 1;
    }
    true
}

const fn contains(ids: &[u16], id: u16) -> bool {
    let mut i = 0;
    while i < ids.len() {
        if ids[i] == id {
            return true;
        }
        i += 1;
    }
    false
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
