//! SEC040–SEC048: dangerous commands in everything a definition runs (cycod `run`, scripts
//! and steps, agentcli `command`, DojOps verification, MCP server commands, a skill's
//! scripts, Python and JavaScript read lightly) and in the code its Markdown tells the agent
//! to run (`told.rs`), all found by the one analyser of commands
//! ([`crate::analysis::shell::dangers`]): the same command is the same finding wherever it
//! stands. Where it stands sets only how sure the finding is: what a definition runs is what
//! runs; what instructions tell an agent to run is often a vendor's own installer; what a
//! Dockerfile runs runs in a container.
//!
//! The two halves of an exfiltration found apart (a credential store read, data sent where
//! no service lives) are handed to the instruction checks as signals, where they add up
//! with the other signs of a poisoned tool (SEC053).

mod memo;
mod told;
mod vector;

pub(super) use memo::Memo;

use crate::analysis::shell::{
    Danger, DangerKind, Dialect, Language, dangers, recipes, script_dangers, spoken,
};
use crate::diagnostics::cap::Findings;
use crate::diagnostics::{Diagnostic, visible};
use crate::rules::{Rule, Severity, security as sec};
use crate::security::texts::{Shell, Text, TextKind, ToolTexts};
use crate::source::Span;
use crate::text::AnyOf;

/// A script that does this many dangerous things says enough with these.
const MAX_PER_COMMAND: usize = 20;

/// One half of an exfiltration found in a command, for the instruction checks.
pub(super) struct Signal<'t> {
    /// The text it is in.
    pub text: &'t Text<'t>,
    /// Where.
    pub span: Span,
    /// A secret read (else data sent).
    pub read: bool,
    /// An upload that counts only where the tool's name and description say nothing of
    /// sending data.
    pub weak: bool,
    /// The message of its finding.
    pub message: String,
}

/// What the command checks hand on to the instruction checks.
#[derive(Default)]
pub(super) struct Found<'t> {
    /// Halves of an exfiltration.
    pub signals: Vec<Signal<'t>>,
    /// The places of whole exfiltrations (both halves), already reported.
    pub chains: Vec<Span>,
    /// The tool's name or description says it installs a service: its own unit copied in
    /// place is what it said it would do.
    pub service: bool,
}

/// Where a command stands, which sets how sure a finding on it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// The definition runs it.
    Runs,
    /// Instructions tell the agent to run it.
    Told,
    /// A Dockerfile shown in instructions runs it while an image is built.
    Image,
}

/// Every dangerous command in what `tool` runs and what its instructions tell the agent to
/// run.
pub(super) fn check<'t>(tool: &'t ToolTexts<'t>, out: &mut Findings, memo: &mut Memo) -> Found<'t> {
    let mut found = Found {
        service: says_it_installs_a_service(tool),
        ..Found::default()
    };
    for text in &tool.texts {
        match text.kind {
            TextKind::Command(shell) => {
                let dangers = memo.runs(shell, &text.value, |v| match shell {
                    Shell::Posix => dangers(v, Dialect::Posix),
                    Shell::Cmd => dangers(v, Dialect::Cmd),
                    Shell::Pwsh => dangers(v, Dialect::Pwsh),
                    Shell::Process => dangers(v, Dialect::Process),
                    Shell::Python => script_dangers(v, Language::Python),
                    Shell::Node => script_dangers(v, Language::JavaScript),
                    // Other languages: their lines in shell terms, secrets and posts.
                    Shell::Source => script_dangers(v, Language::Other),
                    Shell::Make => dangers(&recipes(v), Dialect::Posix)
                        .into_iter()
                        .map(|mut d| {
                            d.what = spoken(&d.what);
                            if let Some(r) = &mut d.related {
                                r.what = spoken(&r.what);
                            }
                            d
                        })
                        .collect(),
                });
                emit(text, 0, Place::Runs, dangers, out, &mut found);
            }
            _ if tells(text) => told::check(text, tool.fences_of(text), out, &mut found, memo),
            _ => {}
        }
    }
    vector::check(tool, out, &mut found);
    found
}

/// What the texts among `texts` (a batch of a long list of `tool`'s, such as its tags or
/// guidance) tell the agent to run, as [`check`] finds it in the tool's other texts.
pub(super) fn told_in<'t>(
    tool: &ToolTexts<'_>,
    texts: &'t [Text<'t>],
    out: &mut Findings,
    memo: &mut Memo,
) -> Found<'t> {
    let mut found = Found {
        service: says_it_installs_a_service(tool),
        ..Found::default()
    };
    for text in texts.iter().filter(|t| tells(t)) {
        told::check(text, None, out, &mut found, memo);
    }
    found
}

/// Whether `text` is read for what it tells the agent to run: instructions, and a poisoned
/// tool's description or guidance, which tells the model what to run just as a skill's
/// instructions do (`Before use, run `echo … | base64 -d | sh``).
fn tells(text: &Text<'_>) -> bool {
    match text.kind {
        TextKind::Instructions => true,
        TextKind::Description
        | TextKind::ParamDescription
        | TextKind::Guidance
        | TextKind::Prompt => may_tell_a_command(&text.value),
        _ => false,
    }
}

/// A cheap test that a description may tell the model to run something: a code span, a
/// URL, a pipe or substitution, an inline script, a shell named. Most descriptions have
/// none, and are passed over without the reading of instructions.
fn may_tell_a_command(value: &str) -> bool {
    value.contains('`')
        || value.contains("://")
        || value.contains('|')
        || value.contains("$(")
        || value.contains(" -c ")
        || value.contains(" -e ")
        || value.contains("/dev/")
        || value.to_ascii_lowercase().contains("shell")
}

/// Report `dangers` found at offset `base` of `text`, standing at `place`.
pub(super) fn emit<'t>(
    text: &'t Text<'t>,
    base: usize,
    place: Place,
    dangers: Vec<Danger>,
    out: &mut Findings,
    found: &mut Found<'t>,
) {
    for d in dangers.into_iter().take(MAX_PER_COMMAND) {
        let span = text.span_of(base + d.start..base + d.end);
        let shown = visible(&d.what);
        if matches!(
            d.kind,
            DangerKind::SendsData | DangerKind::ReadsCredentials | DangerKind::Uploads
        ) {
            let read = d.kind == DangerKind::ReadsCredentials;
            found.signals.push(Signal {
                text,
                span,
                read,
                weak: d.kind == DangerKind::Uploads,
                message: format!("{} {}: `{shown}`", subject(text, place), phrase(d.kind)),
            });
            continue;
        }
        let Some(mut severity) = severity(d.kind, place) else {
            continue;
        };
        if d.kind == DangerKind::ServiceInstall && found.service {
            severity = Some(Severity::Info);
        }
        if place == Place::Told
            && d.kind == DangerKind::DownloadExecute
            && official_installer(text, base, &d)
        {
            severity = Some(Severity::Info);
        }
        let (rule, label, note, help) = words(d.kind);
        if out.is_full(rule) {
            // Only counted: what the finding would have said is not built. Its places
            // still make a chain the instruction checks read.
            if d.kind == DangerKind::Exfiltration {
                if let Some(r) = &d.related {
                    found
                        .chains
                        .push(text.span_of(base + r.start..base + r.end));
                }
                found.chains.push(span);
            }
            out.count(rule);
            continue;
        }
        let message = if place == Place::Told
            && d.kind == DangerKind::DownloadExecute
            && text.kind != TextKind::Instructions
        {
            format!(
                "{} tells the agent to run a download: `{shown}`",
                text.kind.what()
            )
        } else if place == Place::Told && d.kind == DangerKind::DownloadExecute {
            format!(
                "the instructions in `{}` tell the agent to run a download: `{shown}`",
                visible(&file_name(&text.file))
            )
        } else if d.kind == DangerKind::NotRead {
            format!("{} {}", subject(text, place), phrase(d.kind))
        } else {
            format!("{} {}: `{shown}`", subject(text, place), phrase(d.kind))
        };
        let mut finding = Diagnostic::new(rule, &text.file, span, message)
            .label(label)
            .note(if place == Place::Told {
                format!("an agent follows these instructions as written: {note}")
            } else {
                note.to_string()
            })
            .help(help);
        if let Some(r) = &d.related {
            let related = text.span_of(base + r.start..base + r.end);
            if d.kind == DangerKind::Exfiltration {
                found.chains.push(related);
            }
            finding = finding.related(&text.file, related, r.what.clone());
        }
        if d.kind == DangerKind::Exfiltration {
            found.chains.push(span);
        }
        if let Some(s) = severity {
            finding.severity = s;
        }
        out.push(finding);
    }
}

/// How sure a finding of `kind` is where it stands: `None` to leave it out, `Some(None)`
/// for the rule's own severity. Instructions often send the reader to a vendor's own
/// installer and name `sudo` for a package manager: likely unsafe, not a certain attack.
/// A Dockerfile runs in a container built for it, where both are the custom.
fn severity(kind: DangerKind, place: Place) -> Option<Option<Severity>> {
    use DangerKind as K;
    match (place, kind) {
        (Place::Told, K::DownloadExecute) => Some(Some(Severity::Warning)),
        (Place::Told, K::Privileged | K::CheckoutInstall) => Some(Some(Severity::Info)),
        (
            Place::Image,
            K::DownloadExecute
            | K::Privileged
            | K::UntrustedInstall
            | K::CheckoutInstall
            | K::WorldWritable
            | K::RecursivePermissions,
        ) => None,
        _ => Some(None),
    }
}

/// Hosts that serve the official installer of a widely used developer tool, over HTTPS,
/// from the tool's own domain (or the folder of its own repository). Instructions that
/// tell the agent to install such a tool the way its documentation does are information:
/// the same script is what every user of the tool runs.
const OFFICIAL_INSTALLERS: &[&str] = &[
    "astral.sh/",
    "sh.rustup.rs",
    "get.docker.com",
    "raw.githubusercontent.com/nvm-sh/",
    "raw.githubusercontent.com/homebrew/",
    "get.pnpm.io/",
    "bun.sh/",
    "deno.land/",
    "install.python-poetry.org",
    "pyenv.run",
    "get.sdkman.io",
    "mise.run",
    "fnm.vercel.app/",
    "get.volta.sh",
    "starship.rs/",
    "ollama.com/install.sh",
    "tailscale.com/install.sh",
    "deb.nodesource.com/",
    "rpm.nodesource.com/",
    "claude.ai/install.sh",
    "get.k3s.io",
    "raw.githubusercontent.com/helm/helm/",
    "fly.io/install.sh",
    "sentry.io/get-cli/",
    // Codecov's documented uploader: downloaded, made executable and run in CI.
    "uploader.codecov.io/",
    "cli.codecov.io/",
    "dot.net/v1/dotnet-install.",
    "repo.anaconda.com/miniconda/",
    "github.com/conda-forge/miniforge/releases/",
    // The same on Windows, piped into `Invoke-Expression` as their documentation does.
    "get.scoop.sh",
    "community.chocolatey.org/install.ps1",
    "win.rustup.rs",
];

/// Whether every URL a download-and-run fetches (where it runs, and where it was fetched
/// first) is an official installer's, over HTTPS.
fn official_installer(text: &Text<'_>, base: usize, d: &Danger) -> bool {
    let slice = |s: usize, e: usize| text.value.get(base + s..base + e).unwrap_or("");
    // To the end of its line: `bash -c "$(curl -fsSL URL)"` is found up to `curl`.
    let line_end = text
        .value
        .get(base + d.end..)
        .map_or(0, |rest| rest.find('\n').unwrap_or(rest.len()));
    let mut shown = slice(d.start, d.end + line_end).to_string();
    if let Some(r) = &d.related {
        shown.push(' ');
        shown.push_str(slice(r.start, r.end));
    }
    let mut urls = shown
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '`'))
        .filter(|w| w.contains("://"))
        .peekable();
    urls.peek().is_some()
        && urls.all(|u| {
            u.strip_prefix("https://").is_some_and(|rest| {
                let rest = rest.to_ascii_lowercase();
                OFFICIAL_INSTALLERS.iter().any(|h| rest.starts_with(h))
            })
        })
}

/// Stems of words that say a tool sends data somewhere: a tool named or described so is
/// expected to upload.
const SENDING_WORDS: &[&str] = &[
    "upload",
    "share",
    "send",
    "sync",
    "backup",
    "back up",
    "deploy",
    "publish",
    "post",
    "submit",
    "push",
    "transfer",
    "api",
    "webhook",
    "notif",
    "slack",
    "discord",
    "teams",
    "mail",
    "s3",
    "bucket",
    "storage",
    "cloud",
    "server",
    "remote",
    "integrat",
    "service",
    "http",
    "endpoint",
    "ftp",
    "drive",
    "dropbox",
    "github",
    "gitlab",
    "jira",
    "linear",
    "notion",
    "confluence",
    "vercel",
    "netlify",
    "heroku",
    "registry",
    "release",
    "host",
    "online",
    "web",
    "paste",
    "gist",
    "import",
    "export",
    "ingest",
    "index",
    "support",
    "ticket",
    "feedback",
];

/// Whether a tool's name or description say it sends data somewhere (or it has no
/// description to judge by).
pub(super) fn says_it_sends(tool: &ToolTexts<'_>) -> bool {
    let described = tool.own_words().any(|t| t.kind == TextKind::Description);
    static SENDING: AnyOf = AnyOf::any_case(SENDING_WORDS);
    !described || tool.says_one_of(&SENDING)
}

/// Words that say a tool installs something that keeps running: a service, a daemon, a
/// job at start-up or on a schedule.
const SERVICE_WORDS: &[&str] = &[
    "service",
    "daemon",
    "autostart",
    "startup",
    "start-up",
    "at login",
    "at boot",
    "background",
    "launchd",
    "systemd",
    "schedul",
    "timer",
];

/// Whether a tool's name or description says it installs a service (or something else that
/// keeps running).
fn says_it_installs_a_service(tool: &ToolTexts<'_>) -> bool {
    static SERVICE: AnyOf = AnyOf::any_case(SERVICE_WORDS);
    tool.says_one_of(&SERVICE)
}

/// Who does it, for a message: `a command`, `the instructions in `SKILL.md` tell the agent
/// to run a command that`.
fn subject(text: &Text<'_>, place: Place) -> String {
    let file = visible(&file_name(&text.file)).into_owned();
    match place {
        // A service manager runs it at every start, long after the agent: say where it is.
        Place::Runs if super::units::is_service_file(&file) => {
            format!("the service file `{file}` has a command that")
        }
        Place::Runs => text.kind.what().to_string(),
        Place::Told if text.kind != TextKind::Instructions => {
            format!("{} tells the agent to run a command that", text.kind.what())
        }
        Place::Told => format!("the instructions in `{file}` tell the agent to run a command that"),
        Place::Image => format!("a Dockerfile in `{file}` runs a command that"),
    }
}

/// The name of the file a text is in (`SKILL.md`), as a message shows it.
fn file_name(file: &crate::source::SourceFile) -> String {
    file.path.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// What the command does, for the message.
fn phrase(kind: DangerKind) -> &'static str {
    match kind {
        DangerKind::DownloadExecute => "runs what it downloads",
        DangerKind::DecodeExecute => "runs what it decodes",
        DangerKind::ReverseShell => "opens a shell to a remote host",
        DangerKind::RemoveRoot => "deletes the root or home folder",
        DangerKind::WorldWritable => "makes files writable by every user",
        DangerKind::RecursivePermissions => {
            "changes permissions throughout the root, a system or the home folder"
        }
        DangerKind::Privileged => "runs with root privileges",
        DangerKind::PrivilegeKept => "keeps root privileges for later",
        DangerKind::Exfiltration => "sends a secret it reads to the network",
        DangerKind::SendsData => "sends data where no service of its own lives",
        DangerKind::ReadsCredentials => "reads a credential store",
        DangerKind::Uploads => "uploads data its description does not mention",
        DangerKind::UntrustedInstall | DangerKind::CheckoutInstall => {
            "installs code from outside the package index"
        }
        DangerKind::Persistence | DangerKind::ServiceInstall => "makes something run again later",
        DangerKind::NotRead => {
            "is too long to be read to its end: what follows was not checked for secrets sent out, downloads run later or files written to run again"
        }
    }
}

/// The rule, label, note and help of a kind of danger.
fn words(kind: DangerKind) -> (&'static Rule, &'static str, &'static str, &'static str) {
    match kind {
        DangerKind::DownloadExecute => (
            &sec::DOWNLOAD_AND_EXECUTE,
            "download run by an interpreter",
            "whoever controls the URL (or the network on the way) runs code with the tool's permissions, and nothing in the repository shows what",
            "download to a file, check its checksum or signature, then run that file; better, install a pinned version with a package manager",
        ),
        DangerKind::DecodeExecute => (
            &sec::DECODE_AND_EXECUTE,
            "decoded text run",
            "encoding hides from reviewers what runs: this is how malicious commands are smuggled past review",
            "write the command itself, in clear",
        ),
        DangerKind::ReverseShell => (
            &sec::REVERSE_SHELL,
            "reverse shell",
            "this hands a shell on the machine running the tool to whoever listens at the other end",
            "remove it: no tool needs to connect a shell to the network",
        ),
        DangerKind::RemoveRoot => (
            &sec::DESTRUCTIVE_COMMAND,
            "deletes everything",
            "a recursive delete of the root or home folder destroys the user's files (and the system, with privileges)",
            "delete only the paths the tool created, named explicitly",
        ),
        DangerKind::WorldWritable | DangerKind::RecursivePermissions => (
            &sec::WORLD_WRITABLE,
            "permissions of everything",
            "any user or process on the machine can then change these files, including scripts that run later; a recursive change of the home or a system folder also breaks what depends on strict modes (SSH refuses keys others can read)",
            "grant only what is needed, on the tool's own files: `chmod 755` for programs and `chmod 644` for data",
        ),
        DangerKind::Privileged | DangerKind::PrivilegeKept => (
            &sec::PRIVILEGE_ESCALATION,
            "root privileges",
            "a tool the model can call should not run as root, nor leave a way back to root: a mistaken or injected argument then reaches the whole system",
            "run without privileges; if the tool needs them, grant a narrower permission outside the tool",
        ),
        DangerKind::Exfiltration => (
            &sec::EXFILTRATION_CHAIN,
            "sends it out",
            "reading a secret and sending it to the network in one script is how stolen credentials leave the machine: whoever receives them acts as the user",
            "remove both; a tool that needs a credential gets it from its runtime and sends it only to the service it belongs to, in a header",
        ),
        DangerKind::SendsData => (
            &sec::EXFILTRATION,
            "sends data out",
            "a request catcher, a bare public address or a DNS name built from data is where stolen data goes, never a tool's own service",
            "send data only to the service the tool is for, named in the definition",
        ),
        DangerKind::Uploads => (
            &sec::EXFILTRATION,
            "sends data out",
            "nothing in the name or description says this sends data anywhere, yet it uploads a file: what it sends leaves the machine unannounced",
            "say in the description what is sent and where, or remove the upload",
        ),
        DangerKind::ReadsCredentials => (
            &sec::SENSITIVE_FILE_ACCESS,
            "credential store",
            "keys, tokens and password stores are what a poisoned tool reads to send out",
            "a tool that needs a credential should get it from its runtime, not read the user's stores",
        ),
        DangerKind::UntrustedInstall | DangerKind::CheckoutInstall => (
            &sec::UNTRUSTED_INSTALL,
            "installed from outside the index",
            "what is installed is whatever that URL, index or branch serves on the day: nobody reviewed it, and a second index lets anyone publish a package of the same name (dependency confusion)",
            "install a released version from the default index, pinned (`pkg==1.2.3`, `pkg@1.2.3`), or pin the source by hash or commit",
        ),
        DangerKind::Persistence | DangerKind::ServiceInstall => (
            &sec::PERSISTENCE,
            "runs again later",
            "this keeps running after the agent is done, without the user asking: how malware survives a session (and a key in `authorized_keys` lets its owner log in)",
            "do the work while the agent runs; if something must be scheduled, tell the user how to set it up themselves",
        ),
        DangerKind::NotRead => (
            &sec::COMMANDS_NOT_READ,
            "not read from here on",
            "toolc reads a script's first 4,096 statements and 65,536 words (with those inside `$(…)`) for what flows between its commands; an exfiltration, a download run later or a start-up file written past them goes unreported",
            "move a long script into a file of its own, or split it into several",
        ),
    }
}
