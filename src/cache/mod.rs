//! The content cache in `.toolc_cache/`.

mod serde_helpers;

pub use serde_helpers::{StaticStr, json_option, static_str};
