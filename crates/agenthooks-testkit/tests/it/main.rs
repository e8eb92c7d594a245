//! Integration tests of the testkit, against a small codec whose capability table we control.

mod agreement;
mod conformance;
mod harness;
mod spawn;
mod toy;
