//! `TRQ` rules: `TR-*.md` tool execution requests.

use super::declare_rules;

declare_rules! {
    MISSING_REQUIRED_FIELD = "TRQ001" "tool-request-missing-required-field" Error rejects ["tool-request"] "a front-matter key the spec requires is missing or empty";
    WRONG_FIELD_TYPE = "TRQ002" "tool-request-wrong-field-type" Error rejects ["tool-request"] "a front-matter value has the wrong type";
    INVALID_FIELD_VALUE = "TRQ003" "invalid-field-value" Error rejects ["tool-request"] "a front-matter value is outside what the spec allows (enum, version, timestamp, limit)";
    DUPLICATE_REQUEST_ID = "TRQ004" "duplicate-request-id" Error rejects ["tool-request"] "two requests in the repository share a `request_id`";
    APPROVAL_MISSING = "TRQ005" "approval-missing" Error rejects ["tool-request"] "the approval gate fails: `approved_by`/`approved_utc` empty or `requested_by` missing";
    APPROVED_BEFORE_CREATED = "TRQ006" "approved-before-created" Warning ["tool-request"] "`approved_utc` is earlier than `created_utc`";
    MISSING_SECTION = "TRQ007" "missing-section" Error rejects ["tool-request"] "a body section the backend requires is missing or empty";
    MISORDERED_SECTION = "TRQ008" "misordered-section" Error rejects ["tool-request"] "the body sections are not in the order the spec gives";
    DUPLICATE_SECTION = "TRQ009" "duplicate-section" Error rejects ["tool-request"] "a body section appears twice";
    UNEXPECTED_SECTION = "TRQ010" "unexpected-section" Warning ["tool-request"] "a `##` section the request's backend does not read";
    INVALID_INPUTS_JSON = "TRQ011" "invalid-inputs-json" Error rejects ["tool-request"] "the `## Inputs (JSON)` section does not parse as JSON";
    INVALID_COMMAND = "TRQ012" "invalid-command" Error rejects ["tool-request"] "`## Command` is not a single plain-text line";
    SHELL_OPERATOR_IN_COMMAND = "TRQ013" "shell-operator-in-command" Error rejects ["tool-request"] "the command chains, pipes, redirects or substitutes (`;`, `&&`, `|`, `>`, `<<`, backticks, `$(`)";
    SHELL_LANGUAGE = "TRQ014" "shell-language" Error rejects ["tool-request"] "the request uses a shell as its language";
    PACKAGE_INSTALLATION = "TRQ015" "package-installation" Error rejects ["tool-request"] "the request installs packages (`pip install`, `apt-get`, `curl … | sh`, …)";
    INPUT_WITHOUT_HASH = "TRQ016" "input-without-hash" Error rejects ["tool-request"] "an input has no sha256 hash (64 hex digits)";
    INPUT_OUTSIDE_IN = "TRQ017" "input-outside-in" Error rejects ["tool-request"] "an input file is not under `/in/`";
    OUTPUT_OUTSIDE_OUT = "TRQ018" "output-outside-out" Error rejects ["tool-request"] "an output path is not under `/out/`";
    INPUTS_DISAGREE = "TRQ019" "inputs-disagree" Error rejects ["tool-request"] "the front-matter `inputs` and the `## Input Files` list disagree";
    INCOMPLETE_RISK_ASSESSMENT = "TRQ020" "incomplete-risk-assessment" Error rejects ["tool-request"] "the risk assessment lacks a required line or has a value outside its set";
    EMPTY_NETWORK_ALLOWLIST = "TRQ021" "empty-network-allowlist" Warning ["tool-request"] "`network: allowlist` with no allowlist entries";
    NONSTANDARD_FILE_NAME = "TRQ022" "nonstandard-file-name" Warning ["tool-request"] "the file name is not `TR-YYYYMMDD-HHMMSSZ-<slug>.md`";
    FILE_NAME_TIMESTAMP_MISMATCH = "TRQ023" "file-name-timestamp-mismatch" Info ["tool-request"] "the file name's timestamp is not `created_utc`";
    UNKNOWN_KEY = "TRQ024" "tool-request-unknown-key" Warning ["tool-request"] "a front-matter key the spec does not define";
}
