//! `ACL` rules: agentcli `tools.json` manifests.

use super::declare_rules;

declare_rules! {
    MISSING_REQUIRED_FIELD = "ACL001" "agentcli-missing-required-field" Error breaks ["agentcli-manifest"] "`tools`, a tool's `name` or its `command` is missing (or the name is empty)";
    WRONG_FIELD_TYPE = "ACL002" "agentcli-wrong-field-type" Error breaks ["agentcli-manifest"] "a manifest field has the wrong JSON type";
    DUPLICATE_TOOL_NAME = "ACL003" "agentcli-duplicate-tool-name" Error breaks ["agentcli-manifest"] "two tools in one manifest share a name";
    EMPTY_COMMAND = "ACL004" "empty-command" Error breaks ["agentcli-manifest"] "`command` is an empty list: there is no program to run";
    COMMAND_OUTSIDE_TOOLS_BIN = "ACL005" "command-outside-tools-bin" Error breaks ["agentcli-manifest"] "a relative `command[0]` does not start with `./tools/bin/`";
    COMMAND_ESCAPES_TOOLS_BIN = "ACL006" "command-escapes-tools-bin" Error breaks ["agentcli-manifest"] "a relative `command[0]` climbs out with `..` or leaves `tools/bin` once cleaned";
    INVALID_TIMEOUT = "ACL007" "invalid-timeout" Error breaks ["agentcli-manifest"] "`timeoutSec` is not a positive whole number of seconds";
    INVALID_ENV_NAME = "ACL008" "invalid-env-name" Error breaks ["agentcli-manifest"] "an `envPassthrough` name cannot be an environment variable name, even normalised";
    ENV_NAME_NORMALIZED = "ACL009" "env-name-normalized" Warning ["agentcli-manifest"] "an `envPassthrough` name is rewritten or dropped by agentcli's normalisation";
    UNKNOWN_KEY = "ACL010" "agentcli-unknown-key" Warning ["agentcli-manifest"] "a key agentcli does not read (as written) is ignored";
    MISSING_TOOL_PROGRAM = "ACL011" "missing-tool-program" Warning ["agentcli-manifest"] "the program a relative `command[0]` names is not next to the manifest";
    MISSING_DESCRIPTION = "ACL012" "missing-description" Warning ["agentcli-manifest"] "a tool has no `description` for the model to choose it by";
    OPEN_PARAMETER_SCHEMA = "ACL013" "open-parameter-schema" Info ["agentcli-manifest"] "a parameter schema does not set `additionalProperties: false`";
    BYTE_ORDER_MARK = "ACL014" "byte-order-mark" Error breaks ["agentcli-manifest"] "the manifest starts with a UTF-8 byte-order mark, which agentcli's JSON decoder rejects";
    REFUSED_ROOT_KEYWORD = "ACL015" "refused-root-schema-keyword" Error breaks ["agentcli-manifest"] "a parameter schema has `oneOf`, `anyOf`, `allOf`, `enum` or `not` at its top level, which the model providers refuse";
    COMMAND_LINE_TOO_LONG = "ACL016" "agentcli-command-line-too-long" Warning ["agentcli-manifest"] "a tool's `command` is longer than Windows starts (32,766 characters): toolc checks what fits";
}
