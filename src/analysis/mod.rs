//! Analysers shared by several formats: each reads plain text (a command line, a value, a
//! path, a name) and knows nothing of the file format it came from, so every format applies
//! the same rules and words its own diagnostics.

pub(crate) mod argv;
pub(crate) mod graph;
pub(crate) mod names;
pub(crate) mod passages;
pub(crate) mod paths;
pub(crate) mod programs;
pub(crate) mod registry;
pub(crate) mod runnable;
pub(crate) mod secrets;
pub(crate) mod shell;
pub(crate) mod unicode;
pub(crate) mod urls;
