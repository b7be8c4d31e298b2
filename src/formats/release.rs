//! Letting a loaded file's texts go: a large repository is never all in memory at once, and
//! a finding elsewhere that points into a file reads its text back.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use super::{FileResult, format_of};
use crate::fs::FileSystem;
use crate::source::SourceFile;

impl FileResult {
    /// Let the texts of the result's files go when nothing in them is to be shown (none of
    /// its own diagnostics is `shown`: a finding of a rule the run does not report shows no
    /// line) and they can be read back from `disk` (none is in `buffered`).
    /// A file the item holds too (its texts name it) is replaced, in the result and in the
    /// item, by the same file without its text; the item is then kept encoded (as the cache
    /// keeps it), and decoded now when `decode`.
    pub(crate) fn release_texts(
        &mut self,
        disk: &Arc<dyn FileSystem>,
        buffered: &HashSet<&Path>,
        decode: bool,
        shown: &dyn Fn(&crate::diagnostics::Diagnostic) -> bool,
    ) {
        if self.diagnostics.iter().any(shown) {
            return;
        }
        if std::iter::once(&self.file)
            .chain(&self.companions)
            .any(|f| buffered.contains(f.path.as_path()))
        {
            return;
        }
        // Its findings hold its files too: set aside while the texts go (in place, else
        // replaced), then pointed at the files it holds after.
        let aside = self.set_aside();
        self.release(disk, decode);
        self.put_back(&aside);
    }

    /// Let the texts go, in place when nothing else holds the files, else by replacing them.
    fn release(&mut self, disk: &Arc<dyn FileSystem>, decode: bool) {
        let mut held = false;
        for file in std::iter::once(&mut self.file).chain(&mut self.companions) {
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

    /// Each place a finding names one of the result's files (the file first, then its
    /// companions, by number), now naming an empty file.
    fn set_aside(&mut self) -> Vec<Aside> {
        let files: Vec<*const SourceFile> = std::iter::once(&self.file)
            .chain(&self.companions)
            .map(Arc::as_ptr)
            .collect();
        let mut aside = Vec::new();
        let mut blank = None;
        let mut visit = |slot: &mut Arc<SourceFile>, place: Place| {
            if let Some(i) = files.iter().position(|&f| f == Arc::as_ptr(slot)) {
                let blank = blank.get_or_insert_with(|| {
                    SourceFile::new(
                        Default::default(),
                        String::new(),
                        slot.format,
                        String::new(),
                    )
                });
                *slot = Arc::clone(blank);
                aside.push(Aside { place, file: i });
            }
        };
        for (d, diag) in self.diagnostics.iter_mut().enumerate() {
            visit(
                &mut diag.file,
                Place {
                    diagnostic: d,
                    related: None,
                },
            );
            for (r, related) in diag.related.iter_mut().enumerate() {
                visit(
                    &mut related.file,
                    Place {
                        diagnostic: d,
                        related: Some(r),
                    },
                );
            }
        }
        aside
    }

    /// The places `aside` names the result's files again (as they are now).
    fn put_back(&mut self, aside: &[Aside]) {
        for a in aside {
            let Some(file) = std::iter::once(&self.file)
                .chain(&self.companions)
                .nth(a.file)
            else {
                continue;
            };
            let Some(d) = self.diagnostics.get_mut(a.place.diagnostic) else {
                continue;
            };
            let slot = match a.place.related {
                None => &mut d.file,
                Some(r) => match d.related.get_mut(r) {
                    Some(related) => &mut related.file,
                    None => continue,
                },
            };
            *slot = Arc::clone(file);
        }
    }
}

/// Where a finding names a file: the finding, and which of its related places (none: its own).
#[derive(Clone, Copy)]
struct Place {
    diagnostic: usize,
    related: Option<usize>,
}

/// A place set aside, and which of the result's files it named.
struct Aside {
    place: Place,
    file: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::Claim;
    use crate::fs::Disk;
    use crate::security::Passes;
    use crate::source::FormatId;

    /// A manifest whose findings (two tools of one name, the second pointing back at the
    /// first) a run does not show lets its text go, and its findings still name it.
    #[test]
    fn findings_not_shown_keep_no_text() {
        let dir = std::env::temp_dir().join(format!("toolc-release-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join("tools.json");
        let text =
            r#"{"tools": [{"name": "a", "command": ["x"]}, {"name": "a", "command": ["x"]}]}"#;
        std::fs::write(&path, text).expect("write");
        let disk: Arc<dyn FileSystem> = Arc::new(Disk);
        let load = || {
            crate::formats::load_judged_with(
                &Disk,
                &path,
                "tools.json".into(),
                FormatId::AgentcliManifest,
                Claim::Always,
                Passes::default(),
            )
            .expect("claimed")
        };
        let names_it = |r: &FileResult| {
            r.diagnostics.iter().all(|d| {
                Arc::ptr_eq(&d.file, &r.file)
                    && d.related.iter().all(|x| Arc::ptr_eq(&x.file, &r.file))
            })
        };
        let mut shown = load();
        assert!(shown.diagnostics.iter().any(|d| !d.related.is_empty()));
        shown.release_texts(&disk, &HashSet::new(), true, &|_| true);
        assert!(
            shown.file.text.is_held(),
            "a finding to show keeps the text"
        );
        let mut hidden = load();
        let count = hidden.diagnostics.len();
        hidden.release_texts(&disk, &HashSet::new(), true, &|_| false);
        assert!(!hidden.file.text.is_held());
        assert_eq!(hidden.diagnostics.len(), count);
        assert!(names_it(&hidden));
        assert_eq!(hidden.diagnostics[0].file.text.as_str(), text);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
