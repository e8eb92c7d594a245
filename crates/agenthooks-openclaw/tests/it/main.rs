//! OpenClaw codec tests.
