//! Unit tests of `script.rs`.

use super::*;
