//! An `Arc<SourceFile>` field of a cached item (a security text's file), written as its place
//! among the result's files and read back as that file: `#[serde(with =
//! "crate::source::file_ref")]`.

use std::cell::RefCell;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serializer, de, ser};

use super::SourceFile;

thread_local! {
    /// The files of the result whose item is being encoded or decoded on this thread.
    static FILES: RefCell<Vec<Arc<SourceFile>>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` with `files` as the result's files for [`serialize`] and [`deserialize`].
pub(crate) fn with_files<R>(files: &[Arc<SourceFile>], f: impl FnOnce() -> R) -> R {
    let before = FILES.with(|cell| cell.replace(files.to_vec()));
    let out = f();
    FILES.with(|cell| cell.replace(before));
    out
}

/// Write the file's place.
pub(crate) fn serialize<S: Serializer>(file: &Arc<SourceFile>, s: S) -> Result<S::Ok, S::Error> {
    let at = FILES.with(|cell| cell.borrow().iter().position(|f| f.path == file.path));
    match at {
        Some(at) => s.serialize_u32(at as u32),
        None => Err(ser::Error::custom("a file that is not the result's")),
    }
}

/// Read the file back.
pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<SourceFile>, D::Error> {
    let at = u32::deserialize(d)? as usize;
    FILES
        .with(|cell| cell.borrow().get(at).cloned())
        .ok_or_else(|| de::Error::custom("no such file"))
}
