//! `[discovery] exclude` and `--exclude`: paths toolc never reads, whatever else says so (a
//! pattern, an `include`, a file named on the command line).

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

/// Globs of paths never read, relative to a folder.
#[derive(Debug, Clone)]
pub struct Exclude {
    /// The folder the globs are relative to (a configuration file's folder, or the working
    /// directory for `--exclude`).
    pub root: PathBuf,
    /// The globs.
    pub globs: GlobSet,
}

impl Exclude {
    /// `patterns` relative to `root`, or the first pattern that is not a glob and why.
    pub fn new(root: &Path, patterns: &[String]) -> Result<Exclude, String> {
        let mut builder = GlobSetBuilder::new();
        for p in patterns {
            let glob = Glob::new(p).map_err(|e| format!("invalid glob `{p}`: {}", e.kind()))?;
            builder.add(glob);
        }
        let globs = builder.build().map_err(|e| e.to_string())?;
        Ok(Exclude {
            root: root.to_path_buf(),
            globs,
        })
    }

    /// True when `path` (absolute) or a folder above it, up to the root, matches: excluding a
    /// folder excludes everything in it.
    pub fn matches(&self, path: &Path) -> bool {
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return false;
        };
        rel.ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .any(|a| self.globs.is_match(a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_excludes_what_it_holds() {
        let ex = Exclude::new(
            Path::new("/repo"),
            &["vendor".into(), "**/fixtures/*.json".into()],
        )
        .unwrap();
        assert!(ex.matches(Path::new("/repo/vendor")));
        assert!(ex.matches(Path::new("/repo/vendor/a/tools.json")));
        assert!(ex.matches(Path::new("/repo/x/fixtures/tools.json")));
        assert!(!ex.matches(Path::new("/repo/vendored/tools.json")));
        assert!(!ex.matches(Path::new("/elsewhere/vendor/tools.json")));
        assert!(!ex.matches(Path::new("/repo")));
        assert!(Exclude::new(Path::new("/repo"), &["a/[".into()]).is_err());
    }
}
