//! Letting a loaded file's texts go: a large repository is never all in memory at once, and
//! a finding elsewhere that points into a file reads its text back.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use super::{FileResult, format_of};
use crate::fs::FileSystem;
use crate::source::SourceFile;

impl FileResult {
    /// Let the texts of the result's files go when nothing in them is to be shown (it has no
    /// diagnostics of its own) and they can be read back from `disk` (none is in `buffered`).
    /// A file the item holds too (its texts name it) is replaced, in the result and in the
    /// item, by the same file without its text; the item is then kept encoded (as the cache
    /// keeps it), and decoded now when `decode`.
    pub(crate) fn release_texts(
        &mut self,
        disk: &Arc<dyn FileSystem>,
        buffered: &HashSet<&Path>,
        decode: bool,
    ) {
        if !self.diagnostics.is_empty() {
            return;
        }
        let mut held = false;
        for file in std::iter::once(&mut self.file).chain(&mut self.companions) {
            if buffered.contains(file.path.as_path()) {
                return;
            }
            SourceFile::release_text(file, disk);
            held |= file.text.is_held();
        }
        if !held {
            return;
        }
        let Some(codec) = format_of(self.file.format).and_then(|f| f.cache()) else {
            return;
        };
        let old: Vec<Arc<SourceFile>> = std::iter::once(&self.file)
            .chain(&self.companions)
            .cloned()
            .collect();
        let Some(new) = old
            .iter()
            .map(|f| f.without_text(disk))
            .collect::<Option<Vec<_>>>()
        else {
            return;
        };
        let tools = self.tool_count();
        if !self.item.repoint(codec, &old, new.clone(), tools) {
            return;
        }
        if decode {
            self.item.decode_now();
        }
        let mut new = new.into_iter();
        if let Some(file) = new.next() {
            self.file = file;
            self.companions = new.collect();
        }
    }
}
