//! PowerShell text decoded into a variable on one line and run on a later one
//! (`$s = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String("…"))`, then
//! `Invoke-Expression $s`), read line by line: PowerShell's assignments are not the
//! shell's `NAME=value`, so the statements' flow does not see them.

use super::{Danger, DangerKind, Related};

/// Variables followed at most in one script.
const MAX_VARS: usize = 32;

/// Decoders of .NET and PowerShell, in lower case.
const DECODERS: &[&str] = &[
    "frombase64string(",
    "[convert]::fromhexstring(",
    "gzipstream",
];

/// What runs a string as PowerShell, in lower case.
const RUNNERS: &[&str] = &["iex", "invoke-expression", "scriptblock]::create("];

/// The variables filled with decoded text so far.
#[derive(Default)]
pub(super) struct Decoded {
    vars: Vec<(String, usize, usize)>,
}

impl Decoded {
    /// Read one `line` at offset `base`: remember a decoded variable, report one run.
    pub(super) fn step(&mut self, line: &str, base: usize, out: &mut Vec<Danger>) {
        if !line.contains('$') {
            return;
        }
        let lower = line.to_ascii_lowercase();
        let trimmed = lower.trim_start();
        if let Some((name, _)) = trimmed.strip_prefix('$').and_then(|r| r.split_once('='))
            && DECODERS.iter().any(|d| lower.contains(d))
        {
            let name = name.trim();
            if !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && self.vars.len() < MAX_VARS
            {
                let lead = line.len() - line.trim_start().len();
                let end = line.trim_end().len();
                self.vars.push((name.to_string(), base + lead, base + end));
            }
            return;
        }
        if self.vars.is_empty() || !RUNNERS.iter().any(|r| runs(&lower, r)) {
            return;
        }
        let Some((_, start, end)) = self.vars.iter().find(|(n, _, _)| mentions(&lower, n)) else {
            return;
        };
        let lead = line.len() - line.trim_start().len();
        let stop = line.trim_end().len().max(lead);
        if out.len() < super::MAX_DANGERS {
            out.push(Danger {
                start: base + lead,
                end: base + stop,
                kind: DangerKind::DecodeExecute,
                what: "decoded text run".to_string(),
                related: Some(Related {
                    start: *start,
                    end: *end,
                    what: "decoded here".to_string(),
                }),
            });
        }
    }
}

/// `runner` as a word of `line` (`iex $s`, `$s | iex`, `Invoke-Expression($s)`).
fn runs(line: &str, runner: &str) -> bool {
    line.match_indices(runner).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + runner.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

/// `$name` as a whole variable in `line`.
fn mentions(line: &str, name: &str) -> bool {
    let needle = format!("${name}");
    line.match_indices(&needle).any(|(i, _)| {
        !line[i + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(script: &str) -> usize {
        let mut d = Decoded::default();
        let mut out = Vec::new();
        let mut at = 0;
        for line in script.split_inclusive('\n') {
            d.step(line, at, &mut out);
            at += line.len();
        }
        out.len()
    }

    #[test]
    fn decoded_then_run_on_a_later_line() {
        assert_eq!(
            found(
                "$s = [Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('SQBFAFgA'))\nInvoke-Expression $s\n"
            ),
            1
        );
        assert_eq!(
            found("$p=[Convert]::FromBase64String($b)\n$x = 1\n$p | iex\n"),
            1
        );
    }

    #[test]
    fn decoded_and_kept_as_data_is_quiet() {
        assert_eq!(
            found(
                "$bytes = [Convert]::FromBase64String($cert)\n[IO.File]::WriteAllBytes('c.pfx', $bytes)\n"
            ),
            0
        );
        assert_eq!(
            found("$s = [Convert]::FromBase64String('QQ==')\niex $other\n"),
            0
        );
        assert_eq!(
            found("$sx = [Convert]::FromBase64String('QQ==')\nInvoke-Expression $sxy\n"),
            0
        );
    }
}
