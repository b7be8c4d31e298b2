//! The scripts of the repository a client configuration's servers start (`bash ./start.sh`,
//! `node server.js`, `./bin/serve`): what such a script does runs as the server starts, so
//! the security checks read it as they read the command itself. Each is read once, bounded
//! in size, never run, and never from outside the repository (no absolute path, no `..`,
//! nothing in the home folder).

use std::path::{Component, Path};
use std::sync::Arc;

use crate::analysis::argv;
use crate::analysis::shell::program_name;
use crate::diagnostics::Diagnostic;
use crate::formats::format::decode;
use crate::fs::{FileSystem, ReadError};
use crate::rules::security as sec;
use crate::source::{SourceFile, Span};
use crate::syntax::Node;

/// A script larger than this is not read (and said so: [`not_read`]).
const MAX_SCRIPT_BYTES: usize = 1024 * 1024;

/// Scripts read at most for one configuration file.
const MAX_SCRIPTS: usize = 8;

/// Extensions of the files a server's command runs as a script.
const EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "py", "js", "mjs", "cjs", "ts", "mts", "cts", "ps1",
];

/// A script a server starts.
pub(super) struct Started {
    /// The server's key in the configuration.
    pub server: String,
    /// The script.
    pub file: Arc<SourceFile>,
}

/// The scripts a configuration's servers start, and what says a script was not read.
#[derive(Default)]
pub(super) struct Scripts {
    /// The scripts read.
    pub started: Vec<Started>,
    /// One `SEC057` for each script larger than [`MAX_SCRIPT_BYTES`], and one for the first
    /// named past [`MAX_SCRIPTS`]: neither padding a script nor naming others before it may
    /// hide what it runs in silence.
    pub not_read: Vec<Diagnostic>,
}

/// The scripts the servers of `servers` start, read through `fs` relative to the folder
/// the client runs them from: the configuration's own folder, or the project's when the
/// configuration sits in a client's dot-folder (`.cursor/mcp.json`, `.vscode/mcp.json`).
pub(super) fn started(
    file: &Arc<SourceFile>,
    servers: &[crate::syntax::Entry],
    fs: &dyn FileSystem,
) -> Scripts {
    let mut dir = file.path.parent().unwrap_or(Path::new(""));
    let mut display = parent(file.display());
    if dir
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with('.'))
    {
        dir = dir.parent().unwrap_or(Path::new(""));
        display = parent(display.trim_end_matches('/'));
    }
    let mut out = Scripts::default();
    // The paths read, the scripts too large to read among them: each is read once, and at
    // most [`MAX_SCRIPTS`] of them; naming one more is said, never a silent stop.
    let mut read: Vec<(std::path::PathBuf, Option<Arc<SourceFile>>)> = Vec::new();
    for entry in servers {
        let server = &entry.value;
        let command = server.value("command");
        let program = command.and_then(Node::as_str);
        let args = argv::read(program, server.value("args").and_then(Node::as_list)).items;
        let words = command
            .and_then(|c| Some((c.as_str()?, c.span())))
            .into_iter()
            .chain(args.iter().filter_map(|a| Some((a.as_str()?, a.span()))));
        for (i, (word, span)) in words.enumerate() {
            let Some(rel) = local_script(word, i == 0) else {
                continue;
            };
            let path = dir.join(rel);
            if out
                .started
                .iter()
                .any(|s| s.server == entry.key && s.file.path == path)
            {
                continue;
            }
            let script = match read.iter().find(|(p, _)| *p == path) {
                // Read before: started by another server, or too large (said once).
                Some((_, script)) => script.clone(),
                None if read.len() >= MAX_SCRIPTS => {
                    out.not_read
                        .push(not_read(file, span, rel, Unread::PastCount));
                    return out;
                }
                None => {
                    let script = match fs.read(&path) {
                        Ok(bytes) if bytes.len() <= MAX_SCRIPT_BYTES => {
                            let shown = format!("{display}{}", rel.trim_start_matches("./"));
                            Some(as_script(&path, shown, file.format, bytes))
                        }
                        Ok(_) | Err(ReadError::TooLarge(_)) => {
                            out.not_read
                                .push(not_read(file, span, rel, Unread::TooLarge));
                            None
                        }
                        // Absent, a folder, or a link out of the repository: nothing to read.
                        Err(_) => continue,
                    };
                    read.push((path, script.clone()));
                    script
                }
            };
            if let Some(script) = script.filter(|s| !s.text.is_empty()) {
                out.started.push(Started {
                    server: entry.key.to_string(),
                    file: script,
                });
            }
        }
    }
    out
}

/// The script of `bytes`, as a shell or an interpreter reads it: a NUL byte is nothing to a
/// shell (and a blank here), a byte that is not UTF-8 is read as U+FFFD. Refused as a
/// definition is, one such byte in a comment hid the whole script.
fn as_script(
    path: &Path,
    shown: String,
    format: crate::formats::FormatId,
    mut bytes: Vec<u8>,
) -> Arc<SourceFile> {
    bytes
        .iter_mut()
        .filter(|b| **b == 0)
        .for_each(|b| *b = b' ');
    decode(path, shown, format, bytes).0
}

/// Why a script a server starts was not read.
enum Unread {
    /// Larger than [`MAX_SCRIPT_BYTES`].
    TooLarge,
    /// Named after [`MAX_SCRIPTS`] others were read.
    PastCount,
}

/// The `SEC057` for the script `rel`, named at `span`, that was not read.
fn not_read(file: &Arc<SourceFile>, span: Span, rel: &str, why: Unread) -> Diagnostic {
    let name = rel.trim_start_matches("./");
    let message = match why {
        Unread::TooLarge => format!(
            "the script `{name}` this server starts is larger than 1 MiB: it was not read for dangerous commands"
        ),
        Unread::PastCount => format!(
            "the servers of this file start more than {MAX_SCRIPTS} scripts: `{name}`, and any named after it, were not read for dangerous commands"
        ),
    };
    Diagnostic::new(&sec::COMMANDS_NOT_READ, file, span, message)
        .label("not read")
        .note(format!("toolc reads up to {MAX_SCRIPTS} scripts the servers of a file start, each up to 1 MiB, as it reads the servers' commands: what another one runs as its server starts (a download piped into a shell, a start-up file written) goes unreported"))
        .help("keep the scripts the servers start few and small: move data a script holds into files of its own")
}

/// The folder part of a shown path, with its `/` (`""` at the top).
fn parent(shown: &str) -> &str {
    shown.rfind('/').map_or("", |i| &shown[..=i])
}

/// `word` as the relative path of a script in the project: a script by its extension, or
/// (as the command itself) a path that starts with `./`. Anything that could lead outside
/// the project, or that names no file yet (`$VAR`, a URL, a package), is not one.
fn local_script(word: &str, is_command: bool) -> Option<&str> {
    let word = word.trim();
    if word.is_empty()
        || word.starts_with(['-', '~', '$', '/', '\\'])
        || word.contains("://")
        || word.contains(['$', '%', '@', '*', '?', ':'])
    {
        return None;
    }
    let path = Path::new(word);
    if path
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return None;
    }
    let scripted = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| e.eq_ignore_ascii_case(x)));
    let runs_itself = is_command && word.starts_with("./") && program_name(word) != ".";
    (scripted || runs_itself).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_scripts_inside_the_project_are_read() {
        assert_eq!(local_script("./start.sh", false), Some("./start.sh"));
        assert_eq!(
            local_script("server/index.js", false),
            Some("server/index.js")
        );
        assert_eq!(local_script("./bin/serve", true), Some("./bin/serve"));
        assert_eq!(local_script("./bin/serve", false), None);
        assert_eq!(local_script("../other/start.sh", false), None);
        assert_eq!(local_script("/opt/start.sh", false), None);
        assert_eq!(local_script("~/start.sh", false), None);
        assert_eq!(local_script("${workspaceFolder}/x.py", false), None);
        assert_eq!(local_script("https://x.example/i.sh", false), None);
        assert_eq!(local_script("@scope/server", false), None);
        assert_eq!(local_script("C:\\tools\\run.ps1", false), None);
        assert_eq!(local_script("mcp-server-fetch", false), None);
    }
}
