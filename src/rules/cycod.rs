//! `CYC` rules: cycod custom tools (`.cycod/tools/*.yaml`).

use super::declare_rules;

declare_rules! {}
