//! The risk assessment and what a request may reach: the network allowlist, host paths, privileged
//! access and embedded secrets.

use super::*;

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
