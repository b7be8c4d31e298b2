//! Text made at run time and then run, in Python and JavaScript: decoded
//! (`exec(b64decode(…))`), fetched from the network (`exec(urlopen(URL).read())`), or saved
//! by a download and handed to the system (`urlretrieve(URL, "/tmp/p.sh")`, then
//! `subprocess.run(["bash", "/tmp/p.sh"])`).

use std::sync::LazyLock;

use regex::Regex;

use super::super::{Danger, DangerKind, Related, push};
use super::literals::floor;
use super::{
    ASSIGNED, JS_DECODE, JS_FETCH, JS_RUN, Language, MAX_CALLS, PY_DECODE, PY_FETCH, PY_RUN,
    PY_SHELL, identifiers,
};

/// `exec(b64decode(…))` on one line, or `x = b64decode(…)` then `exec(x)` on a later one;
/// the same for text fetched from the network (`exec(urlopen(URL).read())`).
pub(super) fn decoded_and_run(source: &str, lang: Language, out: &mut Vec<Danger>) {
    let (decode, fetch, run) = match lang {
        Language::Python => (PY_DECODE.as_ref(), PY_FETCH.as_ref(), PY_RUN.as_ref()),
        Language::JavaScript => (JS_DECODE.as_ref(), JS_FETCH.as_ref(), JS_RUN.as_ref()),
        Language::Other => return,
    };
    let (Some(decode), Some(fetch), Some(run), Some(assigned)) =
        (decode, fetch, run, ASSIGNED.as_ref())
    else {
        return;
    };
    let mut decoded: Vec<(String, usize, usize, DangerKind)> = Vec::new();
    // The last fetch, by line: what a callback or a response object carries from it
    // (`res.on('data', c => d += c)`, `code = res.text`) is not followed by name.
    let mut fetched: Option<(usize, usize, usize)> = None;
    let mut at = 0;
    for (number, line) in source.split_inclusive('\n').enumerate() {
        let base = at;
        at += line.len();
        let code = line.trim_start();
        if code.starts_with('#') || code.starts_with("//") {
            continue;
        }
        // A method of that name (`re.compile(`) runs nothing.
        let ran = run.find(line).filter(|r| !line[..r.start()].ends_with('.'));
        let made = decode
            .find(line)
            .map(|d| (d, DangerKind::DecodeExecute))
            .or_else(|| fetch.find(line).map(|d| (d, DangerKind::DownloadExecute)));
        if let Some((d, kind)) = made {
            if let Some(r) = ran {
                let (start, end) = (r.start().min(d.start()), r.end().max(d.end()));
                let what = if kind == DangerKind::DecodeExecute {
                    "decoded text run"
                } else {
                    "fetched text run"
                };
                push(out, base + start, base + end, kind, what);
                continue;
            }
            if kind == DangerKind::DownloadExecute {
                fetched = Some((number, base + d.start(), base + d.end()));
            }
            if let Some(name) = assigned.captures(line).and_then(|c| c.get(1))
                && decoded.len() < MAX_CALLS
            {
                decoded.push((
                    name.as_str().to_string(),
                    base + d.start(),
                    base + d.end(),
                    kind,
                ));
            }
            continue;
        }
        let Some(r) = ran else {
            continue;
        };
        // `exec(x)`, `eval(compile(x, …))`, `new Function(x)`: the variable is run.
        let inside = &line[r.end()..];
        let hit = decoded
            .iter()
            .find(|(name, ..)| identifiers(inside).take(3).any(|w| w == name));
        if let Some((name, ds, de, kind)) = hit {
            let how = if *kind == DangerKind::DecodeExecute {
                "decoded"
            } else {
                "fetched"
            };
            out.push(Danger {
                start: base + r.start(),
                end: base + r.end() + name.len(),
                kind: *kind,
                what: format!("{name} run after it is {how}"),
                related: Some(Related {
                    start: *ds,
                    end: *de,
                    what: format!("{how} here"),
                }),
            });
        } else if let Some((_, fs, fe)) = fetched.filter(|(n, ..)| number - n <= FETCH_WINDOW)
            && evaluates(r.as_str())
            && !inside.trim_start().starts_with(['"', '\'', '`'])
        {
            out.push(Danger {
                start: base + r.start(),
                end: base + r.end(),
                kind: DangerKind::DownloadExecute,
                what: "fetched text run".to_string(),
                related: Some(Related {
                    start: fs,
                    end: fe,
                    what: "fetched here".to_string(),
                }),
            });
        }
    }
}

/// Lines after a fetch within which code evaluated is taken to be what it fetched.
const FETCH_WINDOW: usize = 12;

/// A call that evaluates code in the interpreter itself (`eval(`, `exec(`, `new Function(`),
/// not one that runs a program.
fn evaluates(call: &str) -> bool {
    !call.contains("system") && !call.contains("execSync")
}

/// `urlretrieve(URL, "/tmp/p.sh")`, `wget.download(URL, out="p.sh")`: the file saved.
static PY_SAVED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"\b(urlretrieve|wget\.download)\s*\([^,\n]+,\s*(out\s*=\s*)?["']([^"'\n]+)["']"#)
        .ok()
});

/// A file downloaded and then handed to the system to run (`subprocess.run(["bash",
/// "/tmp/p.sh"])`, `os.system("sh /tmp/p.sh")`).
pub(super) fn downloaded_and_run(source: &str, out: &mut Vec<Danger>) {
    let (Some(saved), Some(shell)) = (PY_SAVED.as_ref(), PY_SHELL.as_ref()) else {
        return;
    };
    for c in saved.captures_iter(source).take(8) {
        let (Some(call), Some(file)) = (c.get(0), c.get(3)) else {
            continue;
        };
        let name = file.as_str();
        let ran = shell
            .find_iter(&source[call.end()..])
            .take(MAX_CALLS)
            .find(|m| {
                let args = &source[call.end() + m.end()..];
                args[..floor(args, 200)].contains(name)
            });
        if let Some(m) = ran {
            out.push(Danger {
                start: call.end() + m.start(),
                end: call.end() + m.end(),
                kind: DangerKind::DownloadExecute,
                what: format!(
                    "{} run after it is downloaded",
                    super::super::exfil::shorten(name)
                ),
                related: Some(Related {
                    start: call.start(),
                    end: call.end(),
                    what: "downloaded here".to_string(),
                }),
            });
        }
    }
}
