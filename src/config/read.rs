//! Reading a configuration file without trusting it: its size, its kind, where it links to.

use std::path::Path;

/// Configuration files larger than this are refused (a real one is a few hundred bytes).
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// Read a configuration file safely: only a regular file (never a device, FIFO or folder,
/// which could block or never end), at most [`MAX_CONFIG_BYTES`], and, for a file found by
/// walking up from the working directory, never through a link that leaves its folder: a
/// committed `toolc.toml` linked to `/proc/self/environ` must not be read, or its content
/// would be echoed in the configuration errors.
pub(super) fn read_config_file(path: &Path, found: bool) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            "not a regular file; toolc reads its configuration only from a regular file",
        ));
    }
    if found && std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        // The repository is the nearest folder above with `.git`, else the file's own folder.
        let folder = path.parent().unwrap_or(Path::new("."));
        let root = std::fs::canonicalize(crate::fs::project::repository_of(folder))?;
        let target = std::fs::canonicalize(path)?;
        if !target.starts_with(&root) {
            return Err(Error::new(
                ErrorKind::PermissionDenied,
                "a link to a file outside the repository; toolc does not follow it",
            ));
        }
        if target
            .strip_prefix(&root)
            .is_ok_and(crate::fs::boundary::names_git)
        {
            return Err(Error::new(
                ErrorKind::PermissionDenied,
                "a link into `.git`; toolc reads nothing there",
            ));
        }
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidData,
            "larger than 1 MiB; a configuration file is a few hundred bytes",
        ));
    }
    String::from_utf8(bytes).map_err(|_| Error::new(ErrorKind::InvalidData, "not valid UTF-8"))
}
