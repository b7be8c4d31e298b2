//! `SCH` rules: JSON Schemas embedded in or referenced by tool definitions.

use super::declare_rules;

declare_rules! {
    INVALID_JSON_SCHEMA = "SCH001" "invalid-json-schema" Error breaks ["dojops-tool", "agentcli-manifest", "tool-md", "mcp-tools"] "the schema is not valid JSON Schema (draft-07 meta-schema)";
    REQUIRED_PROPERTY_UNDEFINED = "SCH002" "required-property-undefined" Warning ["dojops-tool", "agentcli-manifest", "tool-md", "mcp-tools"] "`required` names a property that `properties` does not define";
    VALUE_VIOLATES_OWN_SCHEMA = "SCH003" "value-violates-own-schema" Warning ["dojops-tool", "agentcli-manifest", "tool-md", "mcp-tools"] "a `default` or `enum` value does not match the schema it belongs to";
    KEYWORD_NOT_ENFORCED = "SCH004" "keyword-not-enforced" Warning ["dojops-tool"] "a schema keyword DojOps's JSON-Schema-to-Zod conversion silently drops";
    REMOTE_REF = "SCH005" "remote-ref" Error breaks ["dojops-tool", "agentcli-manifest", "mcp-tools"] "a `$ref` points at a remote URL, which toolc never fetches";
}
