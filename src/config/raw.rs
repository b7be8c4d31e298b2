//! The shape of a `toolc.toml` as it is deserialised, every value with its span: unknown keys
//! are refused here, meaning is given in `Config::parse`.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// A whole `toolc.toml`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConfig {
    pub(super) extend: Option<Spanned<String>>,
    pub(super) preview: Option<bool>,
    #[serde(default)]
    pub(super) rules: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    pub(super) overrides: Vec<RawOverride>,
    #[serde(default)]
    pub(super) formats: BTreeMap<Spanned<String>, RawFormat>,
    pub(super) discovery: Option<RawDiscovery>,
    pub(super) build: Option<RawBuild>,
    pub(super) lock: Option<RawLock>,
    pub(super) baseline: Option<RawBaseline>,
    #[serde(default)]
    pub(super) runtimes: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default, rename = "custom-rules")]
    pub(super) custom_rules: Vec<crate::custom::RawRule>,
}

/// `[baseline]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBaseline {
    pub(super) path: Spanned<String>,
}

/// `[discovery]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDiscovery {
    #[serde(default)]
    pub(super) exclude: Vec<Spanned<String>>,
}

/// One `[[overrides]]` entry.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOverride {
    pub(super) paths: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) rules: BTreeMap<Spanned<String>, Spanned<String>>,
}

/// `[formats.NAME]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFormat {
    #[serde(default)]
    pub(super) include: Vec<Spanned<String>>,
}

/// `[build]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBuild {
    pub(super) targets: Option<Vec<Spanned<String>>>,
    pub(super) out: Option<Spanned<String>>,
}

/// `[lock]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLock {
    #[serde(default)]
    pub(super) required: bool,
}
