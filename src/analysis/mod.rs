//! Analysers shared by several formats: each reads plain text (a command line, a value, a
//! path, a name) and knows nothing of the file format it came from, so every format applies
//! the same rules and words its own diagnostics.

pub mod graph;
pub mod names;
pub mod passages;
pub mod paths;
pub mod programs;
pub mod registry;
pub mod runnable;
pub mod secrets;
pub mod shell;
pub mod unicode;
pub mod urls;
