//! A problem with a custom rule, found while it is compiled: a span in `toolc.toml` and
//! what is wrong.

use std::ops::Range;

/// A problem with a custom rule: where in `toolc.toml` (bytes of the file body) and what.
pub(crate) struct RuleError {
    /// The bytes, relative to the file's body (after a byte-order mark).
    pub span: Range<usize>,
    /// What is wrong.
    pub message: String,
}

/// A [`RuleError`] at `span`.
pub(crate) fn error(span: Range<usize>, message: impl Into<String>) -> RuleError {
    RuleError {
        span,
        message: message.into(),
    }
}
