//! `DOJ` rules: DojOps `tool.yaml` (spec 1), `.dops` v2 skills and `.dojops/policy.yaml`.

use super::declare_rules;

declare_rules! {
    MISSING_REQUIRED_FIELD = "DOJ001" "missing-required-field" Error rejects ["dojops-tool", "dojops-dops"] "a field the spec requires is missing";
    WRONG_FIELD_TYPE = "DOJ002" "wrong-field-type" Error rejects ["dojops-tool", "dojops-dops", "dojops-policy"] "a field has the wrong type";
    INVALID_TOOL_NAME = "DOJ003" "invalid-tool-name" Error rejects ["dojops-tool", "dojops-dops"] "a tool or skill name breaks the naming rule";
    UNSUPPORTED_SPEC_VERSION = "DOJ004" "unsupported-spec-version" Error rejects ["dojops-tool"] "`spec` is not exactly the integer 1";
    INVALID_ENUM_VALUE = "DOJ005" "invalid-enum-value" Error rejects ["dojops-tool", "dojops-dops"] "a field holds a value outside its allowed set";
    INVALID_FIELD_LENGTH = "DOJ006" "invalid-field-length" Error rejects ["dojops-tool", "dojops-dops"] "a string or list is empty or longer than allowed";
    UNKNOWN_KEY = "DOJ007" "unknown-key" Warning ["dojops-tool", "dojops-dops", "dojops-policy"] "a key DojOps does not know is silently dropped";
    INVALID_SCHEMA_PATH = "DOJ008" "invalid-schema-path" Error rejects ["dojops-tool"] "`inputSchema`/`outputSchema` is not a relative path inside the tool folder";
    MISSING_SCHEMA_FILE = "DOJ009" "missing-schema-file" Error rejects ["dojops-tool"] "the schema file a manifest names does not exist";
    FILE_TOO_LARGE = "DOJ010" "file-too-large" Error rejects ["dojops-tool", "dojops-dops"] "a manifest, schema or skill is larger than DojOps reads";
    DUPLICATE_TOOL_NAME = "DOJ011" "duplicate-tool-name" Error rejects ["dojops-tool", "dojops-dops"] "two tools or skills in one `.dojops/` project share a name";
    UNKNOWN_TEMPLATE_PLACEHOLDER = "DOJ012" "unknown-template-placeholder" Error rejects ["dojops-tool"] "a `{name}` placeholder in a path names no input-schema property";
    VERIFICATION_BINARY_NOT_ALLOWED = "DOJ013" "verification-binary-not-allowed" Error rejects ["dojops-tool", "dojops-dops"] "the verification command's binary is not on DojOps's allowlist";
    VERIFICATION_BINARY_NOT_IN_SPEC = "DOJ014" "verification-binary-not-in-spec" Warning ["dojops-tool"] "the verification binary is whitelisted by current DojOps but not by spec 1";
    VERIFICATION_NEVER_RUNS = "DOJ015" "verification-never-runs" Warning ["dojops-tool"] "verification is declared without `child_process: required`, so it never runs";
    POLICY_UNKNOWN_TOOL = "DOJ016" "policy-unknown-tool" Warning ["dojops-policy"] "a policy allowlist names a tool the project does not define";
    POLICY_BLOCKS_PROJECT_TOOLS = "DOJ017" "policy-blocks-project-tools" Warning ["dojops-policy"] "allowlist mode blocks tools the project defines";
    POLICY_ALLOWED_AND_BLOCKED = "DOJ018" "policy-allowed-and-blocked" Warning ["dojops-policy"] "a tool is both allowed and blocked";
    UNSUPPORTED_DOPS_VERSION = "DOJ019" "unsupported-dops-version" Error rejects ["dojops-dops"] "a `.dops` file is not `dops: v2`";
    MISSING_DOPS_SECTION = "DOJ020" "missing-dops-section" Error rejects ["dojops-dops"] "a `.dops` file lacks its `## Prompt` or `## Keywords` section";
    UNKNOWN_VERIFICATION_PARSER = "DOJ021" "unknown-verification-parser" Error rejects ["dojops-dops"] "`verification.binary.parser` is not a parser DojOps knows";
    INSECURE_ICON_URL = "DOJ022" "insecure-icon-url" Error rejects ["dojops-dops"] "`meta.icon` is not an `https://` URL of at most 2048 characters";
    VERIFICATION_SHELL_SYNTAX = "DOJ023" "verification-shell-syntax" Warning ["dojops-dops"] "a `.dops` verification command uses shell syntax, which DojOps passes to the program as literal arguments";
    TOOL_YAML_NOT_LOADED = "DOJ024" "tool-yaml-not-loaded" Warning ["dojops-tool"] "a `tool.yaml` or `plugin.yaml` tool, which DojOps 1.1.0 and later no longer load: move it to a `.dops` skill";
    DOPS_NOT_LOADED = "DOJ025" "dops-not-loaded" Warning ["dojops-dops"] "a `.dops` skill in a `.dojops/` folder DojOps 1.1.0 and later never read";
}
