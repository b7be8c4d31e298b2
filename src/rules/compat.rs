//! `CMP` rules: what a target provider (OpenAI, Anthropic, MCP, Gemini) would reject or
//! weaken in a bundle. Active for the targets being built, or configured in `[build] targets`.

use super::declare_rules;

declare_rules! {
    PROVIDER_TOOL_NAME = "CMP001" "provider-tool-name" Error breaks [] "a tool name that a target provider's name pattern rejects";
    DUPLICATE_BUNDLED_NAME = "CMP002" "duplicate-bundled-name" Error breaks [] "two tools in one bundle share a name";
    NON_OBJECT_INPUT_SCHEMA = "CMP003" "non-object-input-schema" Error breaks [] "an input schema whose root is not `type: object`, which every provider requires";
    GEMINI_UNSUPPORTED_SCHEMA = "CMP004" "gemini-unsupported-schema" Error breaks [] "an input schema keyword or shape outside Gemini's OpenAPI subset";
    OPENAI_STRICT_INCOMPATIBLE = "CMP005" "openai-strict-incompatible" Info [] "an input schema OpenAI strict mode cannot take, so the tool is bundled without `strict`";
    TOO_MANY_OPENAI_TOOLS = "CMP006" "too-many-openai-tools" Warning [] "more tools than OpenAI accepts in one request (128)";
    EMPTY_TOOL_DESCRIPTION = "CMP007" "empty-tool-description" Warning [] "a bundled tool without a description, which every provider's model chooses tools by";
    LONG_TOOL_DESCRIPTION = "CMP008" "long-tool-description" Error breaks [] "a tool description longer than the 1,024 characters OpenAI accepts";
    MCP_OUTPUT_SCHEMA_NOT_OBJECT = "CMP009" "mcp-output-schema-not-object" Warning [] "an output schema that is not an object, which MCP's `outputSchema` cannot carry";
}
