//! Checks on one simple command (quotes and escapes resolved): privileges, recursive
//! deletion and permission changes of the root or home folder, world-writable modes and
//! set-user-id bits, `nc -e` and `socat exec:`, PowerShell's encoded commands, and the
//! script a shell is handed with `-c`.

use super::super::is_privilege_command;
use super::super::lex::{Command, Word};
use super::super::{Inline, inline_script};
use super::{Danger, DangerKind, Language, PREFIXES, dangers, program, push, script_dangers};

/// Targets whose recursive deletion wipes the system or the user's files.
const ROOT_TARGETS: &[&str] = &[
    "/",
    "/*",
    "/.",
    "~",
    "~/",
    "~/*",
    "$HOME",
    "$HOME/",
    "$HOME/*",
    "${HOME}",
    "${HOME}/",
    "${HOME}/*",
    "%USERPROFILE%",
    "%SYSTEMDRIVE%\\",
    "$env:USERPROFILE",
];

/// Modes that let every user write.
const WORLD_WRITABLE: &[&str] = &[
    "777", "0777", "666", "0666", "a+rwx", "ugo+rwx", "a=rwx", "ugo=rwx", "o+w", "a+w", "o+rwx",
];

/// Checks on one simple command: privileges, deletion, permissions, `nc -e`, shells given a
/// script with `-c`.
pub(super) fn check(script: &str, command: &Command, out: &mut Vec<Danger>) {
    let mut ws: &[Word] = &command.words;
    while let Some(first) = ws.first() {
        let p = program(&first.text);
        if is_privilege_command(&p) {
            push(out, first.start, first.end, DangerKind::Privileged, &p);
        }
        if PREFIXES.contains(&p.as_str())
            || first.text.contains('=')
            || first.text.starts_with('-') && p != "-"
        {
            ws = &ws[1..];
        } else {
            break;
        }
    }
    let Some(first) = ws.first() else {
        return;
    };
    let p = program(&first.text);
    let args = &ws[1..];
    let flag = |short: char, long: &str| {
        args.iter().any(|a| {
            let t = a.text.as_str();
            t == long || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains(short))
        })
    };
    match p.as_str() {
        "rm" if flag('r', "--recursive") || flag('R', "--recursive") => {
            if let Some(t) = args
                .iter()
                .find(|a| is_root(&a.text) || a.text == "--no-preserve-root")
            {
                let what = &script[first.start..t.end];
                push(out, first.start, t.end, DangerKind::RemoveRoot, what);
            }
        }
        "rd" | "rmdir" | "remove-item" | "del" => {
            let recursive = args.iter().any(|a| {
                let t = a.text.to_ascii_lowercase();
                t == "/s" || t == "-recurse" || t == "-r"
            });
            if recursive && let Some(t) = args.iter().find(|a| is_root(&a.text)) {
                let what = &script[first.start..t.end];
                push(out, first.start, t.end, DangerKind::RemoveRoot, what);
            }
        }
        "chmod" | "chown" | "chgrp" => permissions(script, first, args, &p, out),
        _ if super::mounts::ENGINES.contains(&p.as_str()) => {
            super::mounts::check(script, first, args, out);
        }
        "nc" | "ncat" | "netcat" if flag('e', "--exec") || flag('c', "--sh-exec") => {
            push(
                out,
                first.start,
                first.end,
                DangerKind::ReverseShell,
                &format!("{p} -e"),
            );
        }
        "socat" => {
            if let Some(a) = args.iter().find(|a| {
                let t = a.text.to_ascii_lowercase();
                t.starts_with("exec:") || t.starts_with("system:")
            }) {
                push(
                    out,
                    first.start,
                    a.end,
                    DangerKind::ReverseShell,
                    "socat exec:",
                );
            }
        }
        "powershell" | "pwsh" => {
            if let Some(a) = args.iter().find(|a| {
                let t = a.text.to_ascii_lowercase();
                matches!(t.as_str(), "-e" | "-enc" | "-ec" | "-encodedcommand")
            }) {
                push(
                    out,
                    first.start,
                    a.end,
                    DangerKind::DecodeExecute,
                    &format!("{p} {}", a.text),
                );
            }
        }
        _ => {}
    }
    // `bash -c "…"`, `pwsh -Command "…"`, `cmd /c "…"`: read the script handed on in its
    // own language (in a shell the text checks see much of it already; the findings
    // coincide and are merged).
    // `python3 -c "…"`, `node -e "…"`: read lightly, as a script of that language is.
    let Some((i, inner)) = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| inline_script(&p, &a.text).map(|l| (i, l)))
    else {
        return;
    };
    let Some(s) = args.get(i + 1) else {
        return;
    };
    let raw = &script[s.start..s.end];
    let offset = if raw == s.text {
        s.start
    } else if raw.get(1..raw.len().saturating_sub(1)) == Some(s.text.as_str()) {
        s.start + 1
    } else {
        usize::MAX
    };
    let map = |a: usize, b: usize| {
        // Escapes inside the quotes moved the offsets: the whole script word stands for it.
        if offset == usize::MAX {
            (s.start, s.end)
        } else {
            (offset + a, offset + b)
        }
    };
    let found = match inner {
        Inline::Shell(dialect) => dangers(&s.text, dialect),
        Inline::Python => script_dangers(&s.text, Language::Python),
        Inline::JavaScript => script_dangers(&s.text, Language::JavaScript),
    };
    for mut d in found {
        (d.start, d.end) = map(d.start, d.end);
        if let Some(r) = &mut d.related {
            (r.start, r.end) = map(r.start, r.end);
        }
        out.push(d);
    }
}

/// System folders whose permissions a tool has no business changing recursively.
const SYSTEM_FOLDERS: &[&str] = &[
    "/etc",
    "/usr",
    "/var",
    "/bin",
    "/sbin",
    "/lib",
    "/boot",
    "/opt",
    "/System",
    "/Library",
    "C:\\Windows",
];

/// `chmod 777`, `chmod -R 0666 ~`, `chown -R nobody /`, `chmod u+s`: modes that let
/// everyone write, set-user-id bits, and recursive changes of the root, a system or the
/// home folder.
fn permissions(script: &str, first: &Word, args: &[Word], p: &str, out: &mut Vec<Danger>) {
    let recursive = args.iter().any(|a| {
        a.text == "--recursive"
            || (a.text.starts_with('-') && !a.text.starts_with("--") && a.text.contains('R'))
    });
    let wide = args.iter().find(|a| {
        let t = a.text.trim_end_matches('/');
        is_root(&a.text) || SYSTEM_FOLDERS.iter().any(|f| t.eq_ignore_ascii_case(f))
    });
    let world = args
        .iter()
        .find(|a| p == "chmod" && WORLD_WRITABLE.contains(&a.text.as_str()));
    let setuid = args.iter().find(|a| {
        let t = a.text.as_str();
        p == "chmod"
            && (t.contains("+s")
                || (t.len() == 4
                    && t.starts_with(['2', '4', '6'])
                    && t.bytes().all(|b| (b'0'..=b'7').contains(&b))))
    });
    let to = |a: &Word| &script[first.start..a.end.max(first.start)];
    match (world, wide.filter(|_| recursive)) {
        (Some(m), Some(w)) => {
            let end = m.end.max(w.end);
            let what = &script[first.start..end];
            push(out, first.start, end, DangerKind::WorldWritable, what);
        }
        (Some(m), None) => push(out, first.start, m.end, DangerKind::WorldWritable, to(m)),
        (None, Some(w)) => push(
            out,
            first.start,
            w.end,
            DangerKind::RecursivePermissions,
            to(w),
        ),
        (None, None) => {}
    }
    if let Some(s) = setuid {
        push(out, first.start, s.end, DangerKind::PrivilegeKept, to(s));
    }
}

/// A deletion target that is the root, a drive or the home folder.
fn is_root(word: &str) -> bool {
    let upper = word.to_ascii_uppercase();
    ROOT_TARGETS.iter().any(|t| t.eq_ignore_ascii_case(word))
        || (upper.len() <= 4
            && upper
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_alphabetic)
            && matches!(&upper[1..], ":" | ":\\" | ":\\*" | ":/"))
}
