//! A file system that answers from the walks what they know (whether a name in an unchanged
//! folder is a regular file, whether a folder holds a `.git`), and asks the disk otherwise.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Walks;
use crate::fs::{DirEntry, FileSystem, Noted, ReadError};

/// A file system that answers "is there a regular file" from the walks where it can (see
/// [`Walks::known_file`]), and notes what the disk answers otherwise; never for a path with
/// a buffer over it.
pub struct Known<'a> {
    fs: &'a dyn FileSystem,
    walks: &'a Walks,
    buffered: Option<&'a HashSet<&'a Path>>,
}

impl<'a> Known<'a> {
    /// `fs` (the disk), answered from `walks`.
    pub fn new(fs: &'a dyn FileSystem, walks: &'a Walks) -> Known<'a> {
        Known {
            fs,
            walks,
            buffered: None,
        }
    }

    /// `fs` (buffers over the disk), answered from `walks` for the paths not in `buffered`.
    pub fn with_buffers(
        fs: &'a dyn FileSystem,
        walks: &'a Walks,
        buffered: &'a HashSet<&'a Path>,
    ) -> Known<'a> {
        Known {
            fs,
            walks,
            buffered: Some(buffered),
        }
    }
}

impl FileSystem for Known<'_> {
    fn read(&self, path: &Path) -> Result<Vec<u8>, ReadError> {
        self.fs.read(path)
    }

    fn read_noted(&self, path: &Path) -> Noted {
        self.fs.read_noted(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        if self
            .buffered
            .is_some_and(|b| !b.is_empty() && b.contains(path))
        {
            return self.fs.is_file(path);
        }
        if let Some(known) = self.walks.known_file(path) {
            return known;
        }
        // Not a link: the disk's own answer is the run's (a link is asked through `fs`,
        // which does not follow it out of the repository).
        self.walks
            .learn(path)
            .unwrap_or_else(|| self.fs.is_file(path))
    }

    fn list_dir(&self, path: &Path) -> Vec<DirEntry> {
        self.fs.list_dir(path)
    }

    fn link_out(&self, path: &Path) -> Option<PathBuf> {
        // A regular file the walks know is no link, in a folder they entered without
        // following one.
        let buffered = self
            .buffered
            .is_some_and(|b| !b.is_empty() && b.contains(path));
        if !buffered && self.walks.known_file(path) == Some(true) {
            return None;
        }
        self.fs.link_out(path)
    }

    fn exists(&self, path: &Path) -> bool {
        if path.file_name().is_some_and(|n| n == ".git")
            && !self
                .buffered
                .is_some_and(|b| !b.is_empty() && b.contains(path))
            && let Some(known) = path.parent().and_then(|dir| self.walks.known_git(dir))
        {
            return known;
        }
        self.fs.exists(path)
    }
}
