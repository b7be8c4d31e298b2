//! toolc: a compiler and linter for repositories of LLM tool definitions.
//!
//! The pipeline is discover → load (parse, lower, security, caps) → resolve across files →
//! severity → suppress → baseline → report, and emit for a build (`src/pipeline/`);
//! [`check`] runs it and returns every diagnostic, sorted by path and position.

// Input never reaches an unwrap: errors are values (tests may unwrap, see clippy.toml).
#![warn(clippy::unwrap_used, clippy::expect_used)]
#![warn(unreachable_pub)]

pub(crate) mod analysis;
pub(crate) mod baseline;
pub(crate) mod bundle;
pub(crate) mod cache;
pub(crate) mod change;
pub(crate) mod config;
pub(crate) mod custom;
pub(crate) mod diagnostics;
pub(crate) mod discover;
pub(crate) mod formats;
pub(crate) mod fs;
pub(crate) mod ir;
pub(crate) mod lock;
pub mod memory;
pub(crate) mod output;
mod pipeline;
pub(crate) mod rules;
pub(crate) mod runtimes;
pub(crate) mod schema;
pub(crate) mod scope;
pub(crate) mod security;
pub(crate) mod server;
pub(crate) mod source;
pub(crate) mod suppress;
pub(crate) mod syntax;
pub(crate) mod text;
pub(crate) mod timing;
pub(crate) mod unclaimed;
pub(crate) mod workspace;

pub mod cli;

pub use bundle::Target;
pub use change::{ChangeKind, DiffError, DiffOptions, DiffReport, ToolChange, ToolChanges, diff};
pub use config::{Config, ConfigError};
pub use diagnostics::{Applicability, Diagnostic, Edit, Fix, Related, Summary};
pub use output::OutputFormat;
pub use rules::{Basis, Rule, Severity};
pub use source::{FormatId, Position, SourceFile, Span};
pub use workspace::Workspace;

pub use lock::Written as LockWritten;

/// Write `toolc.lock` for every tool of the project `config` governs (the configuration's
/// folder, else the repository around its folder), as `toolc lock` does.
pub fn lock(config: &Config) -> std::io::Result<LockWritten> {
    lock::lock(config)
}

/// Every rule toolc has, in code order.
pub fn rules() -> Vec<&'static Rule> {
    rules::all()
}

/// The rule with this code (`DOJ003`, any case) or name (`invalid-tool-name`).
pub fn rule(code_or_name: &str) -> Option<&'static Rule> {
    rules::lookup(code_or_name)
}

pub use pipeline::{
    Buffer, CheckOptions, Inputs, Progress, Report, check, check_and_compile, check_with,
};
