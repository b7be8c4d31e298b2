//! A generator of synthetic Agent Skills repositories for benchmarks: N skills under
//! `.claude/skills/`, each a `SKILL.md` of about 80 lines that links two reference pages, names
//! a script and an asset, with the script (executable, `#!` line) and the files it names; a
//! few percent broken in varied ways.
//!
//! Deterministic: the same `Spec` always writes the same bytes.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Number of skills.
    pub skills: usize,
    /// Every how many skills one is broken (0: none).
    pub broken_every: usize,
}

/// The ways a generated skill is broken, each caught by a different rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    /// `name` is not the folder's (SKL004, and skillsaw's `agentskill-name`).
    NameMismatch,
    /// A link to a reference page that does not exist (SKL011).
    BrokenLink,
    /// An uppercase name (SKL003 and SKL004).
    Uppercase,
    /// `compatibility` is a list (SKL002, and skillsaw's `agentskill-valid`).
    CompatibilityList,
}

const DEFECTS: [Defect; 4] = [
    Defect::NameMismatch,
    Defect::BrokenLink,
    Defect::Uppercase,
    Defect::CompatibilityList,
];

/// What was written.
#[derive(Debug, Default)]
pub struct Generated {
    /// Files written.
    pub files: usize,
    /// Bytes written.
    pub bytes: usize,
    /// The broken skills: folder (relative to the root) and defect.
    pub broken: Vec<(String, Defect)>,
}

/// Write the repository under `root` (which should be empty).
pub fn write(root: &Path, spec: &Spec) -> io::Result<Generated> {
    let mut out = Generated::default();
    for i in 0..spec.skills {
        let name = format!("skill-{i:05}");
        let dir = format!(".claude/skills/{name}");
        let defect = (spec.broken_every > 0 && i % spec.broken_every == spec.broken_every - 1)
            .then(|| DEFECTS[(i / spec.broken_every) % DEFECTS.len()]);
        if let Some(d) = defect {
            out.broken.push((dir.clone(), d));
        }
        let files = [
            ("SKILL.md", skill_md(&name, i, defect)),
            ("references/GUIDE.md", guide(i)),
            ("references/EXAMPLES.md", examples(i)),
            ("scripts/run.py", script(i)),
            (
                "assets/template.json",
                format!("{{\"skill\": \"{name}\", \"fields\": []}}\n"),
            ),
        ];
        for (rel, text) in files {
            let path = root.join(&dir).join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, &text)?;
            out.files += 1;
            out.bytes += text.len();
            #[cfg(unix)]
            if rel.starts_with("scripts/") {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
            }
        }
    }
    Ok(out)
}

fn skill_md(name: &str, i: usize, defect: Option<Defect>) -> String {
    let shown = match defect {
        Some(Defect::NameMismatch) => format!("{name}-renamed"),
        Some(Defect::Uppercase) => name.to_uppercase(),
        _ => name.to_string(),
    };
    let compatibility = match defect {
        Some(Defect::CompatibilityList) => "compatibility:\n  - python3\n".to_string(),
        _ => "compatibility: Requires Python 3.10 or newer\n".to_string(),
    };
    let guide = if defect == Some(Defect::BrokenLink) {
        "references/GUIDES.md"
    } else {
        "references/GUIDE.md"
    };
    let mut s = format!(
        "---\nname: {shown}\ndescription: Processes the records of data set {i} into a report. Use when the user asks about data set {i} or its reports.\nlicense: Apache-2.0\n{compatibility}metadata:\n  author: example-org\n  version: \"1.{i}\"\nallowed-tools: Bash(python scripts/run.py:*) Read\n---\n\n# Data set {i}\n\n"
    );
    let _ = writeln!(
        s,
        "Read [the guide]({guide}) first, and [the examples](references/EXAMPLES.md) when unsure.\n"
    );
    for step in 1..=30 {
        let _ = writeln!(
            s,
            "{step}. Step {step} of the report for data set {i}: check the input, keep the units, and write the result as a table."
        );
    }
    s.push_str("\n## Run\n\n```bash\npython scripts/run.py --input data.csv --template assets/template.json\n```\n\n");
    for para in 0..20 {
        let _ = writeln!(
            s,
            "Note {para}: records with missing values are reported, never guessed; totals are rounded to two decimals.\n"
        );
    }
    s
}

fn guide(i: usize) -> String {
    let mut s = format!("# Guide for data set {i}\n\n");
    for section in 0..10 {
        let _ = writeln!(
            s,
            "## Part {section}\n\nColumns are `id`, `date`, `amount`; dates are ISO 8601. Group by month, then by region.\n"
        );
    }
    s
}

fn examples(i: usize) -> String {
    let mut s = format!("# Examples for data set {i}\n\n");
    for ex in 0..5 {
        let _ = writeln!(
            s,
            "## Example {ex}\n\n| month | region | total |\n|---|---|---|\n| 2025-0{} | north | {}.00 |\n",
            ex + 1,
            ex * 100 + i
        );
    }
    s
}

fn script(i: usize) -> String {
    format!(
        "#!/usr/bin/env python3\n\"\"\"Report on data set {i}.\"\"\"\n\nimport csv\nimport sys\n\n\ndef main() -> int:\n    rows = list(csv.DictReader(open(sys.argv[2])))\n    print(len(rows))\n    return 0\n\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n"
    )
}
