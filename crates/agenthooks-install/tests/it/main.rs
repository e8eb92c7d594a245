//! Integration tests for agenthooks-install.

mod common;
mod created;
mod doctor;
mod exec;
mod golden;
mod install;
mod layers;
mod openclaw;
mod props;
mod selfinstall;
mod trust;
mod warm;
mod writes;
