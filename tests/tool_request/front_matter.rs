//! The front matter: required keys, types, values, unique request ids, the approval gate, unknown
//! keys, and the file name with its timestamp.

use super::*;

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
