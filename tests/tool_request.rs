//! `TR-*.md` tool execution requests: every rule triggered at the right line and column,
//! silent on valid ERA and Monty requests, and the secret detector quiet on input hashes.

mod common;

use common::{Repo, lines};

const ERA_PATH: &str = "requests/TR-20250131-140500Z-sales-summary.md";
const MONTY_PATH: &str = "requests/TR-20250131-160000Z-mean-of-values.md";
const ERA: &str =
    include_str!("fixtures/tool-request/valid/requests/TR-20250131-140500Z-sales-summary.md");
const MONTY: &str =
    include_str!("fixtures/tool-request/valid/requests/TR-20250131-160000Z-mean-of-values.md");

/// Diagnostics (as `path:line:col CODE severity message`) for one request at `path`.
fn check_at(path: &str, text: &str) -> Vec<String> {
    let repo = Repo::with(&[(path, text)]);
    lines(&repo.check().expect("config"))
}

/// `text` with `from` replaced (which must be there).
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the request lacks {from:?}");
    text.replacen(from, to, 1)
}

/// Assert exactly these diagnostics (`line:col CODE severity message` each) for the edited
/// ERA request.
fn era(from: &str, to: &str, want: &[&str]) {
    expect(ERA_PATH, &edit(ERA, from, to), want);
}

fn monty(from: &str, to: &str, want: &[&str]) {
    expect(MONTY_PATH, &edit(MONTY, from, to), want);
}

fn expect(path: &str, text: &str, want: &[&str]) {
    let found = check_at(path, text);
    let want: Vec<String> = want.iter().map(|w| format!("{path}:{w}")).collect();
    assert_eq!(found, want);
}

#[test]
fn valid_era_and_monty_requests_are_silent() {
    assert_eq!(check_at(ERA_PATH, ERA), Vec::<String>::new());
    assert_eq!(check_at(MONTY_PATH, MONTY), Vec::<String>::new());
    let report = common::check_dir(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tool-request/valid"
    )))
    .expect("config");
    assert_eq!(lines(&report), Vec::<String>::new());
}

#[test]
fn missing_backend_means_era() {
    era("backend: ERA\n", "", &[]);
}

#[test]
fn missing_and_empty_front_matter_keys() {
    era(
        "purpose: Summarise the sales CSV into a JSON report\n",
        "",
        &["1:1 TRQ001 error required field `purpose` is missing"],
    );
    era(
        "purpose: Summarise the sales CSV into a JSON report",
        "purpose: \"\"",
        &["9:10 TRQ001 error `purpose` must not be empty"],
    );
}

#[test]
fn wrong_field_types() {
    era(
        "memory_limit_mb: 512",
        "memory_limit_mb: \"512\"",
        &["14:18 TRQ002 error `memory_limit_mb` must be an integer, found a string"],
    );
    era(
        "cpu_limit: \"1\"",
        "cpu_limit: 1",
        &["13:12 TRQ002 error `cpu_limit` must be a string, found an integer"],
    );
}

#[test]
fn invalid_field_values() {
    era(
        "request_type: tool_request",
        "request_type: tool-request",
        &["2:15 TRQ003 error `request_type` must be `tool_request`, found `tool-request`"],
    );
    era(
        "schema_version: \"1\"",
        "schema_version: \"2\"",
        &["3:17 TRQ003 error `schema_version` must be `1`, found `\"2\"`"],
    );
    era(
        "backend: ERA",
        "backend: docker",
        &["10:10 TRQ003 error `backend` must be one of `ERA`, `monty`, found `docker`"],
    );
    era(
        "network: none",
        "network: open",
        &["12:10 TRQ003 error `network` must be one of `none`, `allowlist`, found `open`"],
    );
    era(
        "created_utc: 2025-01-31T14:05:00Z",
        "created_utc: 31/01/2025",
        &[
            "5:14 TRQ003 error `created_utc` is not an ISO-8601 timestamp: expected `YYYY-MM-DDTHH:MM:SSZ`, found `31/01/2025`",
        ],
    );
    era(
        "time_limit_sec: 120",
        "time_limit_sec: 0",
        &["15:17 TRQ003 error `time_limit_sec` must be a positive integer, found `0`"],
    );
}

#[test]
fn duplicate_request_id_across_the_repository() {
    let repo = Repo::with(&[
        (ERA_PATH, ERA),
        ("archive/TR-20250131-140500Z-sales-summary-copy.md", ERA),
    ]);
    let report = repo.check().expect("config");
    assert_eq!(
        lines(&report),
        [format!(
            "{ERA_PATH}:4:13 TRQ004 error request id `TR-20250131-140500Z-sales-summary` is already used by `archive/TR-20250131-140500Z-sales-summary-copy.md`"
        )]
    );
    let related = &report.diagnostics[0].related[0];
    assert_eq!(
        related.file.display(),
        "archive/TR-20250131-140500Z-sales-summary-copy.md"
    );
    assert_eq!(related.file.position(related.span.start).line, 4);
}

#[test]
fn approval_gate() {
    era(
        "approved_by: alice",
        "approved_by: \"\"",
        &["7:14 TRQ005 error `approved_by` is empty"],
    );
    era(
        "approved_by: alice",
        "approved_by:",
        &["7:1 TRQ005 error `approved_by` has no value"],
    );
    era(
        "approved_utc: 2025-01-31T15:10:00Z\n",
        "",
        &["1:1 TRQ005 error `approved_utc` is missing"],
    );
    era(
        "requested_by: core\n",
        "",
        &["1:1 TRQ005 error `requested_by` is missing"],
    );
}

#[test]
fn approved_before_created() {
    era(
        "approved_utc: 2025-01-31T15:10:00Z",
        "approved_utc: 2025-01-31T13:00:00Z",
        &[
            "8:15 TRQ006 warning `approved_utc` (2025-01-31T13:00:00Z) is before `created_utc` (2025-01-31T14:05:00Z)",
        ],
    );
    // Offsets are compared in UTC: 16:00+02:00 is 14:00Z, before 14:05Z.
    era(
        "approved_utc: 2025-01-31T15:10:00Z",
        "approved_utc: 2025-01-31T16:00:00+02:00",
        &[
            "8:15 TRQ006 warning `approved_utc` (2025-01-31T16:00:00+02:00) is before `created_utc` (2025-01-31T14:05:00Z)",
        ],
    );
}

#[test]
fn missing_and_empty_sections() {
    era(
        "## Output Expectations\n\n- `/out/summary.json`: totals per region, as one JSON object\n\n",
        "",
        &["21:1 TRQ007 error the body has no `## Output Expectations` section"],
    );
    era(
        "## Command\n",
        "### Command\n",
        &["23:1 TRQ007 error the body has no `## Command` section"],
    );
    era(
        "\n- `/out/summary.json`: totals per region, as one JSON object\n",
        "\n",
        &["32:1 TRQ007 error the `## Output Expectations` section is empty"],
    );
    monty(
        "## Code\n",
        "## code\n",
        &["18:1 TRQ007 error the body has no `## Code` section"],
    );
}

#[test]
fn misordered_and_duplicate_sections() {
    // `## Command` moved after `## Input Files`.
    let command =
        "## Command\n\npython -u /in/summarise.py --in /in/sales.csv --out /out/summary.json\n\n";
    let moved = edit(
        &edit(ERA, command, ""),
        "## Output Expectations",
        &format!("{command}## Output Expectations"),
    );
    expect(
        ERA_PATH,
        &moved,
        &["28:1 TRQ008 error `## Command` must come before `## Input Files`"],
    );
    era(
        "## Risk Assessment\n",
        "## Output Expectations\n\n- `/out/extra.json`\n\n## Risk Assessment\n",
        &["36:1 TRQ009 error `## Output Expectations` appears twice"],
    );
}

#[test]
fn unexpected_sections() {
    era(
        "## Risk Assessment\n",
        "## Notes\n\nrun it on Friday\n\n## Risk Assessment\n",
        &["36:1 TRQ010 warning `## Notes` is not a section of ERA requests"],
    );
    // A near miss of an optional section, or of one that exists, is not taken for it.
    monty(
        "## Inputs (JSON)\n",
        "## Inputs\n",
        &["26:1 TRQ010 warning `## Inputs` is not a section of monty requests"],
    );
    era(
        "## Risk Assessment\n",
        "## command\n\nsee above\n\n## Risk Assessment\n",
        &["36:1 TRQ010 warning `## command` is not a section of ERA requests"],
    );
    monty(
        "## Output Expectations\n",
        "## Command\n\npython x.py\n\n## Output Expectations\n",
        &[
            "32:1 TRQ010 warning `## Command` is a section of ERA requests, but this request's backend is `monty`",
        ],
    );
}

#[test]
fn inputs_json_must_parse() {
    monty(
        "{\"values\": [1, 2, 3, 4]}",
        "{\"values\": [1, 2, 3, 4],}",
        &[
            "29:24 TRQ011 error `## Inputs (JSON)` is not valid JSON: trailing commas are not allowed",
        ],
    );
    monty(
        "## Inputs (JSON)\n\n```json\n{\"values\": [1, 2, 3, 4]}\n```\n",
        "## Inputs (JSON)\n\n",
        &["26:1 TRQ011 error the `## Inputs (JSON)` section holds no JSON"],
    );
}

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

#[test]
fn risk_assessment_lines() {
    era(
        "Data sensitivity: internal\n",
        "",
        &["36:1 TRQ020 error the risk assessment has no `Data sensitivity:` line"],
    );
    era(
        "Risk level: low",
        "Risk level: low|medium|high",
        &[
            "38:13 TRQ020 error `Risk level` must be one of `low`, `medium`, `high`, found `low|medium|high`",
        ],
    );
    era(
        "Data sensitivity: internal",
        "Data sensitivity: secret",
        &[
            "40:19 TRQ020 error `Data sensitivity` must be one of `public`, `internal`, `confidential`, found `secret`",
        ],
    );
    // `network: allowlist` needs a reason (and hosts, TRQ021 otherwise).
    let allow = edit(
        ERA,
        "network: none",
        "network: allowlist\nallowlist:\n  - api.example.com",
    );
    expect(
        ERA_PATH,
        &allow,
        &[
            "43:20 TRQ020 error `Network rationale` must say why network access is needed (`network: allowlist`)",
        ],
    );
    expect(
        ERA_PATH,
        &edit(
            &allow,
            "Network rationale: none needed",
            "Network rationale: fetches exchange rates from api.example.com",
        ),
        &[],
    );
}

#[test]
fn empty_network_allowlist() {
    era(
        "Network rationale: none needed",
        "Network rationale: fetches exchange rates",
        &[],
    );
    let found = check_at(
        ERA_PATH,
        &edit(
            &edit(ERA, "network: none", "network: allowlist"),
            "Network rationale: none needed",
            "Network rationale: fetches exchange rates",
        ),
    );
    assert_eq!(
        found,
        [format!(
            "{ERA_PATH}:12:10 TRQ021 warning `network: allowlist` but the request lists no allowed hosts"
        )]
    );
}

#[test]
fn file_name_and_its_timestamp() {
    expect(
        "requests/TR-sales-summary.md",
        ERA,
        &[
            "1:1 TRQ022 warning file name `TR-sales-summary.md` does not follow `TR-YYYYMMDD-HHMMSSZ-<slug>.md`",
        ],
    );
    expect(
        "requests/TR-20250131-140600Z-sales-summary.md",
        ERA,
        &[
            "5:14 TRQ023 info `created_utc` (2025-01-31T14:05:00Z) is not the time in the file name (2025-01-31T14:06:00Z)",
        ],
    );
    let report = Repo::with(&[("requests/TR-sales-summary.md", ERA)])
        .check()
        .expect("config");
    assert_eq!(
        report.diagnostics[0].help.as_deref(),
        Some("rename it to `TR-20250131-140500Z-sales-summary.md`")
    );
}

#[test]
fn unknown_front_matter_key() {
    era(
        "network: none",
        "network: none\nnetwrok: none",
        &["13:1 TRQ024 warning unknown key `netwrok`"],
    );
}

#[test]
fn host_paths() {
    era(
        "--out /out/summary.json",
        "--out /out/summary.json --config /etc/app.conf",
        &[
            "25:80 SEC011 error `/etc/app.conf` is a host path: a request may only name `/in/…`, `/out/…` and relative paths",
        ],
    );
    era(
        "--out /out/summary.json",
        "--out /out/summary.json --key ~/.ssh/id_rsa",
        &["25:77 SEC011 error `~/.ssh/id_rsa` names a home directory"],
    );
    era(
        "--out /out/summary.json",
        "--out /out/../var/run/docker.sock",
        &[
            "25:53 SEC011 error `/out/../var/run/docker.sock` leaves the sandbox folders once `..` is resolved (`/var/run/docker.sock`)",
        ],
    );
    era(
        "--out /out/summary.json",
        "--out ../../summary.json",
        &["25:53 SEC011 error `../../summary.json` climbs out of the working folder"],
    );
    // URLs, `and/or`, relative paths and harmless devices are not host paths.
    era(
        "Justification: reads two mounted files and writes one JSON file; no side effects",
        "Justification: reads and/or writes data/x.csv, see https://example.com/docs/a; logs to /dev/null",
        &[],
    );
}

#[test]
fn privileged_access() {
    era(
        "--out /out/summary.json",
        "--out /out/summary.json --device /dev/sda",
        &[
            "25:71 SEC012 error `--device` asks for privileged access",
            "25:80 SEC012 error `/dev/sda` is a host device",
        ],
    );
    era(
        "python -u",
        "sudo python -u",
        &["25:1 SEC012 error the command asks for privileges with `sudo`"],
    );
}

#[test]
fn embedded_secrets() {
    let cases = [
        (
            "--out /out/summary.json --aws-key AKIAQ3EGRVHW5Z2KXM7P",
            "25:81 SEC013 error an AWS access key id (`AKIAQ3…`) is embedded in the request",
        ),
        (
            // Made up, with a valid checksum.
            "--out /out/summary.json --token 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",
            "25:79 SEC013 error a GitHub personal access token (`ghp_01…`) is embedded in the request",
        ),
        (
            "--out /out/summary.json --password q7Rx2mVp9Lk4Wz8N",
            "25:82 SEC013 error `password` is assigned a literal value: a password or token written into the request",
        ),
        (
            "--out /out/summary.json DB_PASSWORD=q7Rx2mVp9Lk4Wz8N",
            "25:83 SEC013 error `DB_PASSWORD` is assigned a literal value: a password or token written into the request",
        ),
    ];
    for (to, want) in cases {
        era("--out /out/summary.json", to, &[want]);
    }
    era(
        "Justification: reads two mounted files and writes one JSON file; no side effects",
        "Justification: -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACDq7Rx2mVp9Lk4Wz8NfJ3bT6yHc1sD5",
        &["39:16 SEC013 error a private key block is embedded in the request"],
    );
    era(
        "purpose: Summarise the sales CSV into a JSON report",
        "purpose: Summarise\napi_key: \"Zq8x3Lw9Pk2Rv7Tn4Ys1\"",
        &[
            "10:1 TRQ024 warning unknown key `api_key`",
            "10:11 SEC013 error `api_key` is assigned a random-looking value: a credential written into the request",
        ],
    );
    // References to secrets, placeholders and prose are not secrets.
    era(
        "--out /out/summary.json",
        "--out /out/summary.json --password $DB_PASSWORD token=${API_TOKEN}",
        &[],
    );
}

#[test]
fn secret_detector_is_silent_on_input_hashes() {
    // The valid requests carry sha256 hashes in the front matter and in the body list.
    assert!(
        ERA.contains("sha256: 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae")
    );
    assert_eq!(check_at(ERA_PATH, ERA), Vec::<String>::new());
    era(
        "- `/in/sales.csv` — sha256 `",
        "- `/in/sales.csv` — sha256=`",
        &[],
    );
}

#[test]
fn every_defect_in_one_run() {
    let text = include_str!("fixtures/tool-request/broken/requests/TR-20250131-140500Z-broken.md");
    let found = check_at("requests/TR-20250131-140500Z-broken.md", text);
    let codes: Vec<&str> = found
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap_or_default())
        .collect();
    for code in [
        "TRQ005", "TRQ008", "TRQ012", "TRQ013", "TRQ014", "TRQ015", "TRQ016", "TRQ017", "TRQ018",
        "TRQ020", "SEC011", "SEC013",
    ] {
        assert!(codes.contains(&code), "{code} missing from {found:#?}");
    }
}

#[test]
fn crlf_and_bom_requests_are_valid() {
    let text = format!("\u{feff}{}", ERA.replace('\n', "\r\n"));
    assert_eq!(check_at(ERA_PATH, &text), Vec::<String>::new());
    assert_eq!(
        check_at(MONTY_PATH, &MONTY.replace('\n', "\r\n")),
        Vec::<String>::new()
    );
}

#[test]
fn a_flood_of_findings_is_capped_per_rule() {
    let flood = "--config /etc/x ".repeat(1000);
    let found = check_at(
        ERA_PATH,
        &edit(
            ERA,
            "--out /out/summary.json",
            &format!("--out /out/summary.json {flood}"),
        ),
    );
    assert_eq!(found.len(), 201, "{:#?}", &found[195..]);
    assert!(
        found[200]
            .ends_with("SEC011 error 800 more findings of this rule in this file are not shown")
    );
}

#[test]
fn hostile_inputs_do_not_panic() {
    for text in [
        "",
        "---\n",
        "---\n---\n",
        "---\n: : :\n---\n## Command\n",
        "---\nrequest_type: [\n---\n",
        "---\ninputs: [1, {path: 2}, {path: /in/x, sha256: [1]}]\nallowlist: 3\n---\n## Input Files\n- \n- `\n* /in/\n1. sha256:\n",
        "---\ncreated_utc: 2025-13-99T99:99:99+99:99\napproved_utc: 9999-12-31T23:59:60.5-23:59\n---\n",
        "---\nbackend: monty\n---\n## Code\n```\n## Inputs (JSON)\n```\n## Inputs (JSON)\n```json\n",
        "\u{feff}---\r\nrequest_type: tool_request\r\n---\r\n## Command\r\n`a` `b` $( ${ <<<< >>>>& |&\r\n",
        "---\na: 1\n---\n~ ~/ ~a ../ $HOME ${HOME} /é/ -----BEGIN PRIVATE KEY----- ghp_ sk- AKIA password= token:\n",
    ] {
        let repo = Repo::with(&[("TR-x.md", text)]);
        let _ = repo.check();
    }
}
