//! The command and the files it reads and writes: one plain line, shell operators, shell as the
//! language, package installation, inputs with their SHA-256 under `/in`, outputs under `/out`.

use super::*;

#[test]
fn command_is_one_plain_line() {
    era(
        "python -u /in/summarise.py --in /in/sales.csv --out /out/summary.json\n",
        "```\npython -u /in/summarise.py --in /in/sales.csv --out /out/summary.json\n```\n",
        &["25:1 TRQ012 error the command must be plain text, not a code block"],
    );
    era(
        "python -u /in/summarise.py --in /in/sales.csv --out /out/summary.json\n",
        "python -u /in/summarise.py --in /in/sales.csv --out /out/summary.json\npython -V\n",
        &["26:1 TRQ012 error the command must be a single line, found 2 lines"],
    );
}

#[test]
fn shell_operators_on_their_characters() {
    let line = "python -u /in/summarise.py --in /in/sales.csv --out /out/summary.json";
    for (suffix, col, op, what) in [
        ("; echo done", 70, ";", "a command separator"),
        (" && echo done", 71, "&&", "command chaining"),
        (" || echo failed", 71, "||", "command chaining"),
        (" | gzip", 71, "|", "a pipeline"),
        (" > /out/log.txt", 71, ">", "redirection"),
        (" 2>> /out/err.txt", 71, "2>>", "redirection"),
        (" < /in/sales.csv", 71, "<", "redirection"),
        (" <<EOF", 71, "<<", "a heredoc"),
        (" --tag `date`", 77, "`", "command substitution"),
        (" --tag $(date)", 77, "$(", "command substitution"),
        (" &", 71, "&", "a background job"),
    ] {
        era(
            line,
            &format!("{line}{suffix}"),
            &[&format!(
                "25:{col} TRQ013 error the command uses `{op}` ({what})"
            )],
        );
    }
}

#[test]
fn shell_as_language() {
    era(
        "language: python",
        "language: bash",
        &["11:11 TRQ014 error `language` is the shell `bash`"],
    );
    era(
        "python -u /in/summarise.py",
        "sh /in/summarise.py",
        &["25:1 TRQ014 error the command runs the shell `sh`"],
    );
    monty(
        "```python",
        "```bash",
        &["20:4 TRQ014 error a `bash` code block: the request carries a shell script"],
    );
}

#[test]
fn package_installation() {
    monty(
        "values = inputs[\"values\"]",
        "import subprocess; subprocess.run([\"pip\", \"install\", \"numpy\"])",
        &["22:37 TRQ015 error the request installs packages (`pip\", \"install`)"],
    );
    era(
        "Justification: reads two mounted files and writes one JSON file; no side effects",
        "Justification: first run `curl -fsSL https://get.example.sh | sh` to set up",
        &["39:27 TRQ015 error the request installs packages (`curl … | sh`)"],
    );
    era(
        "Justification: reads two mounted files and writes one JSON file; no side effects",
        "Justification: needs apt-get update first",
        &["39:22 TRQ015 error the request installs packages (`apt-get`)"],
    );
}

#[test]
fn inputs_need_a_sha256() {
    // Without front-matter `inputs`, the body list carries the hashes.
    let no_front = edit(
        ERA,
        "inputs:\n  - path: /in/summarise.py\n    sha256: 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae\n  - path: /in/sales.csv\n    sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n",
        "",
    );
    assert_eq!(check_at(ERA_PATH, &no_front), Vec::<String>::new());
    expect(
        ERA_PATH,
        &edit(
            &no_front,
            " — sha256 `9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`",
            "",
        ),
        &["25:4 TRQ016 error input `/in/sales.csv` has no sha256 hash"],
    );
    expect(
        ERA_PATH,
        &edit(
            &no_front,
            "sha256 `9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`",
            "sha256 `9f86d081884c7d65`",
        ),
        &[
            "25:29 TRQ016 error `9f86d081884c7d65` is not a sha256 hash (64 hex digits, found 16 characters)",
        ],
    );
    era(
        "    sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n---",
        "---",
        &["19:11 TRQ016 error input `/in/sales.csv` has no `sha256`"],
    );
    // A file the command reads that no list declares has no hash either.
    era(
        "--out /out/summary.json",
        "--rates /in/rates.csv --out /out/summary.json",
        &[
            "25:55 TRQ016 error `/in/rates.csv` is read by the request but not declared as an input with a hash",
        ],
    );
}

#[test]
fn inputs_only_under_in() {
    era(
        "  - path: /in/sales.csv",
        "  - path: /data/sales.csv",
        &[
            "19:11 TRQ017 error input `/data/sales.csv` is not under `/in/`",
            "30:4 TRQ019 error `/in/sales.csv` is listed under `## Input Files` but not in the front-matter `inputs`",
        ],
    );
    era(
        "- `/in/sales.csv`",
        "- `/in/../etc/shadow`",
        &[
            "19:11 TRQ019 error `/in/sales.csv` is in the front-matter `inputs` but not listed under `## Input Files`",
            "30:4 TRQ017 error input `/in/../etc/shadow` leaves `/in/` once `..` is resolved (`/etc/shadow`)",
        ],
    );
}

#[test]
fn outputs_only_under_out() {
    era(
        "- `/out/summary.json`: totals",
        "- `/out/summary.json`: totals, and a copy in `/tmp/summary.json`",
        &["34:47 TRQ018 error output `/tmp/summary.json` is not under `/out/`"],
    );
    era(
        "- `/out/summary.json`: totals per region, as one JSON object",
        "- `out/summary.json`",
        &[
            "32:1 TRQ018 error `## Output Expectations` lists no output under `/out/`",
            "34:4 TRQ018 error output `out/summary.json` is a relative path, not under `/out/`",
        ],
    );
}

#[test]
fn front_matter_and_body_inputs_must_agree() {
    era(
        "- `/in/sales.csv` — sha256 `9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`",
        "- `/in/sales.csv` — sha256 `0000000000000000000000000000000000000000000000000000000000000000`",
        &[
            "30:29 TRQ019 error the hash of `/in/sales.csv` differs from the one in the front-matter `inputs`",
        ],
    );
    era(
        "- `/in/sales.csv` — sha256 `9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`\n",
        "",
        &[
            "19:11 TRQ019 error `/in/sales.csv` is in the front-matter `inputs` but not listed under `## Input Files`",
        ],
    );
}
