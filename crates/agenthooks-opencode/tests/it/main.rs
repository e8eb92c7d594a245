//! The OpenCode codec's integration tests: conformance over the fixtures, agreement with the
//! fake OpenCode, frame-specific decoding and encoding, and the serve loop end to end.

mod conformance;
mod frames;
