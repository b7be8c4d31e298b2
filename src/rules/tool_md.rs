//! `TMD` rules: `*.tool.md` tool specs and `*.agent.md` agents.

use super::declare_rules;

declare_rules! {
    MISSING_REQUIRED_FIELD = "TMD001" "tool-md-missing-required-field" Error rejects ["tool-md", "agent-md"] "a field the spec requires is missing";
    WRONG_FIELD_TYPE = "TMD002" "tool-md-wrong-field-type" Error rejects ["tool-md", "agent-md"] "a field has the wrong type";
    UNKNOWN_KEY = "TMD003" "tool-md-unknown-key" Error rejects ["tool-md"] "a key outside the closed key sets of a tool file (top level, `meta`, `interface`, `use_guidance`)";
    INVALID_TOOL_ID = "TMD004" "invalid-tool-id" Error rejects ["tool-md"] "`tool_id` does not match ^[a-z0-9_-]{3,64}$";
    INVALID_VERSION = "TMD005" "invalid-version" Error rejects ["tool-md"] "`version` is not a strict MAJOR.MINOR.PATCH version";
    INVALID_TOOL_TYPE = "TMD006" "invalid-tool-type" Error rejects ["tool-md"] "`type` is not `retrieval`, `action`, `function` or `human`";
    INVALID_STATUS = "TMD007" "invalid-status" Error rejects ["tool-md"] "`status` is not `draft`, `active`, `deprecated` or `disabled`";
    MISSING_TRANSPORT = "TMD008" "missing-transport" Error rejects ["tool-md"] "a tool whose `type` is not `function` has no `transport`";
    UNKNOWN_TRANSPORT_TYPE = "TMD009" "unknown-transport-type" Error rejects ["tool-md"] "`transport.type` is not a protocol the spec defines";
    MISSING_TRANSPORT_FIELD = "TMD010" "missing-transport-field" Error rejects ["tool-md"] "a transport lacks a field its protocol requires";
    INVALID_ENDPOINT = "TMD011" "invalid-endpoint" Error rejects ["tool-md"] "a `rest-api` endpoint is not `METHOD /path`";
    INVALID_BASE_URL = "TMD012" "invalid-base-url" Error rejects ["tool-md"] "a `rest-api` `base_url` is not an absolute URL without a trailing slash";
    INVALID_FIELD_VALUE = "TMD013" "tool-md-invalid-field-value" Error rejects ["tool-md", "agent-md"] "a field holds a value outside its allowed set or range";
    MISSING_CREDENTIALS = "TMD014" "missing-credentials" Error rejects ["tool-md"] "a transport has no `credentials` block";
    UNKNOWN_CREDENTIAL_SCHEME = "TMD015" "unknown-credential-scheme" Error rejects ["tool-md"] "`credentials.scheme` is not a scheme the spec defines";
    MISSING_CREDENTIAL_SOURCE = "TMD016" "missing-credential-source" Error rejects ["tool-md"] "an `api-key`, `bearer-token` or `service-account` credential has no `source`";
    UNKNOWN_CREDENTIAL_SOURCE = "TMD017" "unknown-credential-source" Error rejects ["tool-md"] "`credentials.source` is not a secret source the spec defines";
    MISSING_SECRET_FIELD = "TMD018" "missing-secret-field" Error rejects ["tool-md"] "a credential lacks the field its `source` needs (`env` → `name`, `aws_secrets_manager` → `secret_id`, …)";
    INCOMPLETE_OAUTH2 = "TMD019" "incomplete-oauth2" Error rejects ["tool-md"] "an `oauth2` credential lacks `provider` or `function_id`";
    UNSUPPORTED_SCHEMA_KEYWORD = "TMD020" "unsupported-schema-keyword" Error rejects ["tool-md"] "an interface schema uses a keyword outside the tool.md JSON Schema subset";
    UNSUPPORTED_SCHEMA_REFERENCE = "TMD021" "unsupported-schema-reference" Error rejects ["tool-md"] "an interface schema uses `$ref`, `$id` or `definitions`, which tool.md does not support";
    UNKNOWN_SCHEMA_FORMAT = "TMD022" "unknown-schema-format" Warning ["tool-md"] "a schema `format` is not one of the formats tool.md knows";
    INCOMPLETE_ERROR_CODE = "TMD023" "incomplete-error-code" Error rejects ["tool-md"] "an `error_codes` entry lacks `meaning` or `agent_action`";
    DUPLICATE_TOOL_ID = "TMD024" "duplicate-tool-id" Error rejects ["tool-md"] "two tool files in the repository share a `tool_id`";
    UNDECLARED_SIDE_EFFECTS = "TMD025" "undeclared-side-effects" Warning ["tool-md"] "an `action` tool has no `use_guidance.side_effects`, or says `None`";
    MISSING_USAGE_HINTS = "TMD026" "missing-usage-hints" Warning ["tool-md"] "`use_guidance` has no `use_when` or no `avoid_when`";
    DEPRECATED_WITHOUT_DATE = "TMD027" "deprecated-without-date" Warning ["tool-md"] "a `deprecated` tool has no `meta.last_updated` date";
    FILE_NAME_MISMATCH = "TMD028" "file-name-mismatch" Warning ["tool-md"] "the file is not named `<tool_id>.tool.md`";
    OUTSIDE_TOOLS_FOLDER = "TMD029" "outside-tools-folder" Info ["tool-md"] "the tool file is not inside a `tools/` folder";
    DESCRIPTION_SENTENCE_COUNT = "TMD030" "description-sentence-count" Info ["tool-md"] "`meta.description` is not two to five sentences";
    RETRIED_NON_IDEMPOTENT_CALL = "TMD031" "retried-non-idempotent-call" Warning ["tool-md"] "an `action` tool's `POST`/`PATCH` call is retried";
    TIMEOUT_OUT_OF_RANGE = "TMD032" "timeout-out-of-range" Warning ["tool-md"] "`transport.timeout_ms` is below 100 ms or above 5 minutes";
    INVALID_DATE = "TMD033" "invalid-date" Warning ["tool-md"] "`meta.last_updated` is not an ISO 8601 date (`YYYY-MM-DD`)";
    UNKNOWN_TRANSPORT_KEY = "TMD034" "unknown-transport-key" Warning ["tool-md"] "a transport key its protocol does not define";
    INVALID_AGENT_ID = "TMD035" "invalid-agent-id" Error rejects ["agent-md"] "`agent_id` does not match ^[a-z0-9_-]{3,64}$";
    UNKNOWN_AGENT_KEY = "TMD036" "unknown-agent-key" Warning ["agent-md"] "an agent key toolc does not know";
    DUPLICATE_TOOL_REF = "TMD037" "duplicate-tool-ref" Warning ["agent-md"] "an agent references the same tool twice";
    CONFIRMATION_FOR_UNREFERENCED_TOOL = "TMD038" "confirmation-for-unreferenced-tool" Warning ["agent-md"] "`require_user_confirmation_for` names a tool the agent does not reference";
    DUPLICATE_AGENT_ID = "TMD040" "duplicate-agent-id" Error rejects ["agent-md"] "two agent files in the repository share an `agent_id`";
    INVALID_MAX_CALLS = "TMD039" "invalid-max-calls" Error rejects ["agent-md"] "`max_calls_per_run` is not a positive integer";
    OLD_TOOL_LAYOUT = "TMD041" "old-tool-layout" Error rejects ["tool-md"] "a tool file follows an older layout of the spec (`parameters`, `response_schema`, `transport.auth`)";
    STRAY_TOOL_FILE = "TMD042" "stray-tool-file" Warning ["tool-md"] "a `*.tool.md` without the front matter of an AML tool, in a folder of AML tools: most likely a tool the compiler does not register";
}
