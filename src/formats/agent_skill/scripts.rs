//! The programs in `scripts/`, read for the security checks; a program the instructions run
//! by its path (`scripts/x.sh`, "Run scripts/x.py") should run as it is (SKL016), while one
//! run through an interpreter (`python scripts/x.py`), imported, or never run needs neither
//! a `#!` line nor the execute bit. One the instructions name through a link out of the
//! repository is reported (SEC003), never read.

use std::collections::HashMap;
use std::sync::Arc;

use super::references::Runs;
use super::{Cx, rules};
use crate::analysis::programs::{self, linked_out};
use crate::rules::security as sec;
use crate::source::{SourceFile, Span};

/// Extensions of programs run directly (Windows scripts have no `#!` line and no mode bits).
const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "py", "rb", "pl", "js", "mjs", "cjs", "ts", "php", "lua", "r",
];

/// Service files of one skill read at most.
const MAX_SERVICE_FILES: usize = 16;

/// True when the instructions run `rel` as `r` says: such a file is read as a script
/// wherever it lies in the skill, as every file of `scripts/` is.
fn is_run(rel: &str, r: &Runs) -> bool {
    (r.literal.is_some() || r.told.is_some()) && is_program(rel)
        || r.through && has_script_extension(rel)
}

/// True when [`Cx::scripts`] reads `rel` whatever else reads of the skill: a file of
/// `scripts/`, or one the instructions run.
pub(super) fn read_as_script(rel: &str, runs: &HashMap<String, Runs>) -> bool {
    rel.starts_with("scripts/") || runs.get(rel).is_some_and(|r| is_run(rel, r))
}

impl Cx<'_> {
    /// The text files of `scripts/` and the other programs the instructions run (each read
    /// once), for the security checks; SKL016 on those run by their path (`runs`).
    /// `anchor` is where a finding on the skill as a whole goes (its `name`).
    pub(super) fn scripts(
        &mut self,
        runs: &HashMap<String, Runs>,
        anchor: crate::source::Span,
    ) -> Vec<Arc<SourceFile>> {
        let mut paths: Vec<String> = self.folder.files_under("scripts").cloned().collect();
        // Whatever the instructions run, by its path or through an interpreter
        // (`node setup.js`), runs: it is read wherever it lies in the skill.
        let mut direct: Vec<(&String, &Runs)> =
            runs.iter().filter(|(rel, r)| is_run(rel, r)).collect();
        direct.sort_by(|a, b| a.0.cmp(b.0));
        paths.extend(
            direct
                .iter()
                .map(|(rel, _)| (*rel).clone())
                .filter(|rel| !rel.starts_with("scripts/")),
        );
        // A Makefile at the skill's root is what `make` runs there: its recipes run.
        for name in ["Makefile", "makefile", "GNUmakefile"] {
            if self.folder.files.contains_key(name) && !paths.iter().any(|p| p == name) {
                paths.push(name.to_string());
            }
        }
        // A service file the skill ships runs its commands once its code installs it
        // (`cp x.service ~/.config/systemd/user/`): read, however the skill installs it.
        let services: Vec<String> = (self.folder.files.keys())
            .filter(|rel| crate::security::units::is_service_file(rel))
            .take(MAX_SERVICE_FILES + 1)
            .cloned()
            .collect();
        for rel in services.iter().take(MAX_SERVICE_FILES) {
            self.companion(rel);
        }
        // The first one past them is said: a unit that starts a download, shipped after
        // sixteen harmless ones, was not read in silence.
        if let Some(rel) = services.get(MAX_SERVICE_FILES) {
            let d = self
                .diag(
                    &crate::rules::security::FILES_NOT_READ,
                    anchor,
                    format!(
                        "this skill ships more than {MAX_SERVICE_FILES} service files: `{rel}`, and those after it by name, were not checked for the commands they run"
                    ),
                )
                .note("a service file runs its commands once the skill's code installs it, with the user's permissions, and again at every start")
                .help("ship only the service files the skill installs");
            self.push(d);
        }
        let mut out = Vec::new();
        for rel in paths {
            let Some(file) = self.companion(&rel) else {
                self.opaque(&rel, runs.get(&rel));
                continue;
            };
            // Told to run it, the agent picks how: by its path only when the author made it
            // a program (a `#!` line), else through the interpreter its extension names.
            let shebang = file.body().starts_with("#!");
            if let Some(run) = runs.get(&rel).filter(|r| !r.through && is_program(&rel))
                && let Some(at) = run
                    .literal
                    .as_ref()
                    .or(run.told.as_ref().filter(|_| shebang))
            {
                let executable = self.folder.files.get(&rel).and_then(|f| f.executable);
                self.runnable(&file, &rel, executable, at);
            }
            out.push(file);
        }
        out
    }

    /// SEC049: a program the instructions run by its path that the skill ships but that
    /// cannot be read as text (a binary, or more than the read cap).
    fn opaque(&mut self, rel: &str, run: Option<&Runs>) {
        // Made executable first (`chmod +x ./bin/x && ./bin/x`) still runs it by its path.
        let Some(at) = run.and_then(|r| r.literal.as_ref().or(r.told.as_ref())) else {
            return;
        };
        if !self.folder.files.contains_key(rel) {
            return;
        }
        let (message, label, note, help) = if self.oversized.contains(rel) {
            (
                format!(
                    "the instructions run `{rel}`, which is {}",
                    super::past_read_cap()
                ),
                "runs a program toolc did not read",
                "what it does is not checked: a script this large is not reviewed line by line either, and it runs with the user's permissions",
                "keep scripts small, and data the script reads in files of their own",
            )
        } else {
            (
                format!("the instructions run `{rel}`, which the skill ships as a binary"),
                "runs a program nobody can read",
                "what a binary does cannot be reviewed in the repository: it runs with the user's permissions, and whoever built it decides what that is",
                "ship the program's source and build or install it from a pinned release, or run a script in clear",
            )
        };
        let d = crate::diagnostics::Diagnostic::new(&sec::OPAQUE_PROGRAM, &at.0, at.1, message)
            .label(label)
            .note(note)
            .help(help);
        self.push(d);
    }

    /// SKL016: no `#!` line, or no execute bit, on a program run by its path at `at`.
    fn runnable(
        &mut self,
        file: &Arc<SourceFile>,
        rel: &str,
        executable: Option<bool>,
        at: &(Arc<SourceFile>, Span),
    ) {
        let text = file.body();
        let shebang = text.starts_with("#!");
        let first_line = Span::new(
            file.bom_len,
            file.bom_len + text.find('\n').unwrap_or(text.len()),
        );
        let problem = match (shebang, executable) {
            (false, Some(false)) => "has no `#!` line and is not executable",
            (false, _) => "has no `#!` line",
            (true, Some(false)) => "is not executable",
            (true, _) => return,
        };
        let d = crate::diagnostics::Diagnostic::new(
            &rules::SCRIPT_NOT_EXECUTABLE,
            file,
            first_line,
            format!("`{rel}` {problem}"),
        )
        .label(if shebang { "not executable" } else { "no `#!` line" })
        .related(&at.0, at.1, "run by its path here")
        .note("the instructions run it by its path, so the system runs it as a program: without a `#!` line and the execute bit it refuses or runs it in the wrong language")
        .help(if shebang {
            format!("make it executable: `chmod +x {rel}` (and `git add --chmod=+x {rel}`)")
        } else {
            format!(
                "start it with a `#!` line naming its interpreter (`{}`) and make it executable (`chmod +x {rel}`), or have the instructions run it as `{} {rel}`",
                shebang_for(rel),
                interpreter_for(rel)
            )
        });
        self.push(d);
    }
}

impl Cx<'_> {
    /// SEC003: a script the instructions name (`rel`, at `span` in `file`) that is a link,
    /// or lies in a linked folder, leading out of the repository.
    pub(super) fn linked_script(&mut self, file: &Arc<SourceFile>, span: Span, rel: &str) {
        if !rel.starts_with("scripts/") {
            return;
        }
        let Some(out) = linked_out(self.fs, &self.root.join(rel)) else {
            return;
        };
        let d = crate::diagnostics::Diagnostic::new(
            &sec::PROGRAM_OUTSIDE_REPOSITORY,
            file,
            span,
            format!("`{rel}` leads out of the repository, to `{}`", out.shown()),
        );
        // The override names the file the finding is in (SKILL.md or a file it links to).
        let d = programs::explain(
            d,
            "an agent runs a skill's script as `scripts/…` from the skill's folder, and follows the link",
        );
        self.push(d);
    }
}

/// The usual `#!` line of a script with this name's extension.
fn shebang_for(rel: &str) -> String {
    match interpreter_for(rel) {
        "sh" => "#!/bin/sh".to_string(),
        "npx tsx" => "#!/usr/bin/env -S npx tsx".to_string(),
        interpreter => format!("#!/usr/bin/env {interpreter}"),
    }
}

/// The program that runs a script with this name's extension.
fn interpreter_for(rel: &str) -> &'static str {
    let ext = rel.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("sh") => "sh",
        Some("py") => "python3",
        Some("js" | "mjs" | "cjs") => "node",
        Some("ts") => "npx tsx",
        Some("rb") => "ruby",
        Some("pl") => "perl",
        Some("php") => "php",
        Some("lua") => "lua",
        Some("r") => "Rscript",
        Some("zsh") => "zsh",
        Some("fish") => "fish",
        _ => "bash",
    }
}

/// A name with a known script extension (`setup.js`): what an interpreter is handed to run,
/// unlike a data file handed to a program (`docker build -f Dockerfile`).
fn has_script_extension(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        let ext = ext.to_ascii_lowercase();
        !stem.is_empty() && (SCRIPT_EXTENSIONS.contains(&ext.as_str()) || ext == "ps1")
    })
}

/// A program run directly: a known script extension, or none.
fn is_program(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if name == "__init__.py" {
        return false;
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => {
            SCRIPT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::{has_script_extension, interpreter_for, is_program, shebang_for};

    #[test]
    fn interpreters_by_extension() {
        assert_eq!(shebang_for("scripts/a.sh"), "#!/bin/sh");
        assert_eq!(shebang_for("scripts/a.ts"), "#!/usr/bin/env -S npx tsx");
        assert_eq!(shebang_for("scripts/a.py"), "#!/usr/bin/env python3");
        assert_eq!(interpreter_for("scripts/tool"), "bash");
    }

    #[test]
    fn programs() {
        assert!(is_program("scripts/run.py") && is_program("scripts/tool"));
        assert!(!is_program("scripts/README.md") && !is_program("scripts/__init__.py"));
        assert!(!is_program("scripts/run.ps1") && !is_program("scripts/data.json"));
        assert!(has_script_extension("setup.js") && !has_script_extension("Dockerfile"));
    }
}
