//! Property: unknown keys land in `extra`, the raw stays byte-identical, and the neutral answer
//! is the no-op, for every event of the corpus (the checks are the testkit's `props`).

use agenthooks_claude::native::NativeEvent;
use agenthooks_claude::CODEC;
use agenthooks_testkit::props;
use proptest::prelude::*;

use crate::support::CORPUS;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn unknown_keys_land_in_extra_and_raw_is_kept(
        index in any::<prop::sample::Index>(),
        extras in agenthooks_testkit::strategy::unknown_keys("zz_[a-z0-9_]{1,12}", props::scalar()),
    ) {
        let cases = props::docs_cases(&CORPUS);
        let case = &cases[index.index(cases.len())];
        // The future event of `docs/future_event` (`PreWebRequest`) is the `Other` form: its
        // `extra` holds every key of the payload.
        props::check_unknown_keys::<NativeEvent>(&CODEC, case, &extras, |name| name == "PreWebRequest")?;
    }

    #[test]
    fn decode_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        props::check_arbitrary_bytes(&CODEC, bytes);
    }

    #[test]
    fn decode_never_panics_on_mutated_payloads(
        index in any::<prop::sample::Index>(),
        key in any::<prop::sample::Index>(),
        value in props::scalar(),
    ) {
        let cases = props::docs_cases(&CORPUS);
        props::check_mutated_payload(&CODEC, &cases[index.index(cases.len())], key, value)?;
    }
}
