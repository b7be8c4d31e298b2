//! Pipelines: a stage that decodes or fetches text feeding a stage that runs its input.

use super::*;

/// Decoders of the languages a line may be written in (Python, Perl, Ruby, PHP).
pub(super) const INLINE_DECODERS: &[&str] = &[
    "b64decode",
    "decode_base64",
    "base64_decode",
    "decode64",
    "pack(\"H*\"",
    "pack('H*'",
    "pack(\"u\"",
    "hex2bin(",
    "gzinflate(",
    "str_rot13(",
    "unpack1(\"m",
    "unpack(\"m",
    "FromBase64String(",
];

/// Whether `line` may name one of [`INLINE_DECODERS`]: one pass over the line, where
/// looking for each in turn set up a search per decoder for every line of every block
/// (6 % of a skill of a million different blocks).
pub(super) fn may_decode_inline(line: &str) -> bool {
    static ANY: crate::text::AnyOf = crate::text::AnyOf::new(INLINE_DECODERS);
    ANY.in_text(line)
}

/// What runs text in those languages.
pub(super) const INLINE_RUNNERS: &[&str] = &[
    "exec(",
    "eval(",
    "eval ",
    "system(",
    "assert(",
    "iex ",
    "iex(",
    "| iex",
    "|iex",
    "Invoke-Expression",
];

/// `A | B | C` where an earlier stage fetches or decodes and a later one runs its input.
pub(super) fn pipelines(line: &str, base: usize, out: &mut Vec<Danger>) {
    if !line.contains('|') {
        return;
    }
    let mut stages: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    let mut flush = |stages: &mut Vec<(usize, usize)>| {
        let mut source: Option<(usize, usize, DangerKind, String)> = None;
        for (i, (s, e)) in stages.iter().enumerate() {
            let stage = &line[*s..*e];
            let Some((w_at, w, _)) = stage_program(stage) else {
                continue;
            };
            if i > 0
                && RUNNERS.contains(&w.as_str())
                && runs_its_input(&w, &stage[w_at..])
                && let Some((start, _, kind, name)) = &source
            {
                let end = s + w_at + w.len();
                push(
                    out,
                    base + start,
                    base + end,
                    *kind,
                    &format!("{name} … | {w}"),
                );
                source = None;
                continue;
            }
            if matches!(w.as_str(), "nc" | "ncat" | "netcat" | "telnet" | "socat") {
                // A shell fed by a network stream runs what the other end sends.
                source = Some((s + w_at, 0, DangerKind::ReverseShell, w));
            } else if FETCHERS.contains(&w.as_str()) {
                source = Some((s + w_at, 0, DangerKind::DownloadExecute, w));
            } else if is_decoder(stage) {
                source = Some((s + w_at, 0, DangerKind::DecodeExecute, w));
            }
        }
        stages.clear();
    };
    for op in ops(line) {
        match op.kind {
            OpKind::Pipe => {
                stages.push((from, op.start));
                from = op.end;
            }
            OpKind::Separator | OpKind::Chain | OpKind::Background => {
                stages.push((from, op.start));
                flush(&mut stages);
                from = op.end;
            }
            _ => {}
        }
    }
    stages.push((from, line.len()));
    flush(&mut stages);
}

/// True when the interpreter `program`, run as `stage` (from its name on) at the end of a
/// pipe, runs what the pipe gives it. `python -m json.tool`, `python script.py`, `node -e …`
/// and `bash script.sh` run something else and only read the input as data; `sh -s`,
/// `python -` and a bare interpreter run it.
pub(crate) fn runs_its_input(program: &str, stage: &str) -> bool {
    let mut args = words(stage).skip(1).map(|(_, w)| w);
    let shell = matches!(
        program,
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "fish"
    );
    let script_languages = matches!(
        program,
        "python" | "python3" | "perl" | "ruby" | "node" | "php"
    );
    if !shell && !script_languages {
        return true;
    }
    for arg in args.by_ref() {
        match arg {
            // The program comes from the input (`-` and `/dev/stdin` name it; `-s` says so).
            "-" | "/dev/stdin" | "-s" | "--" => return true,
            // A module, or code given on the command line.
            "-m" | "-c" | "-e" | "-E" | "--eval" | "-r" | "--command" => return false,
            _ if arg.starts_with('-') => continue,
            // The first operand is the script to run: the input is its data.
            _ => return false,
        }
    }
    true
}

/// The program a pipeline stage runs, past `sudo` and `env`: offset, lower-case name, and
/// the word as written.
pub(super) fn stage_program(stage: &str) -> Option<(usize, String, &str)> {
    words(stage)
        .find(|(_, w)| {
            let p = program(w);
            !PREFIXES.contains(&p.as_str()) && !w.starts_with('-') && !w.contains('=')
        })
        .map(|(at, w)| (at, program(w), w))
}

/// A stage that decodes or unpacks its input (`base64 -d`, `xxd -r`, `openssl enc -d`).
pub(super) fn is_decoder(stage: &str) -> bool {
    let ws: Vec<String> = words(stage).map(|(_, w)| program(w)).collect();
    let has = |f: &str| ws.iter().any(|w| w == f);
    (ws.iter().any(|w| w.starts_with("base64"))
        && (has("-d") || has("--decode") || has("-D") || has("-di")))
        || (has("xxd") && has("-r"))
        || (has("openssl") && has("-d"))
        || has("uudecode")
        // `rev` read backwards, `printf '\x63\x75…'`: text spelled so nobody reads it.
        || (ws.len() == 1 && has("rev"))
        || ((has("printf") || has("echo")) && stage.matches("\\x").count() >= 4)
}
