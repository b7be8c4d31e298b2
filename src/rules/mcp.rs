//! `MCP` rules: MCP Registry `server.json` metadata and MCP client configurations.

use super::declare_rules;

declare_rules! {
    MISSING_REQUIRED_FIELD = "MCP001" "mcp-missing-required-field" Error rejects ["mcp-server", "mcp-config", "mcp-tools"] "a field the server.json schema, `mcp-publisher` or the client requires is missing (or empty)";
    WRONG_FIELD_TYPE = "MCP002" "mcp-wrong-field-type" Error rejects ["mcp-server", "mcp-config"] "a field has the wrong JSON type";
    INVALID_VALUE = "MCP003" "mcp-invalid-value" Error rejects ["mcp-server", "mcp-config"] "a value is outside what the schema or the client allows (a transport type, a hash, a URL, a path)";
    FIELD_LENGTH = "MCP004" "mcp-field-length" Error rejects ["mcp-server"] "a value is longer or shorter than the schema allows (`description` at most 100 characters, `name` 3 to 200)";
    UNKNOWN_KEY = "MCP005" "mcp-unknown-key" Warning ["mcp-server", "mcp-config"] "a key the schema or the client does not define, so nothing reads it";
    INVALID_SERVER_NAME = "MCP006" "invalid-server-name" Error rejects ["mcp-server"] "`name` is not `namespace/name` in reverse-DNS form (`io.github.user/weather`)";
    FLOATING_VERSION = "MCP007" "floating-version" Error rejects ["mcp-server"] "a version is `latest` or a range (`^1.2.3`, `1.x`) instead of one specific version";
    NON_SEMVER_VERSION = "MCP008" "non-semver-version" Warning ["mcp-server"] "a version does not follow semantic versioning, so registries and clients may not order it";
    OUTDATED_SERVER_SCHEMA = "MCP009" "outdated-server-schema" Warning ["mcp-server"] "`$schema` names an older schema version, or is not a published one";
    MISSING_FILE_HASH = "MCP010" "missing-file-hash" Error rejects ["mcp-server"] "an MCPB package has no `fileSha256` for clients to verify the download with";
    INSECURE_SERVER_URL = "MCP011" "insecure-server-url" Error rejects ["mcp-server"] "a remote, website or icon URL is not HTTPS, or a remote points at this machine";
    UNDEFINED_VARIABLE = "MCP012" "undefined-mcp-variable" Error breaks ["mcp-server", "mcp-config"] "a variable reference names nothing declared, or uses a syntax its client does not expand";
    INVALID_NAMED_ARGUMENT = "MCP013" "invalid-named-argument" Error rejects ["mcp-server"] "a named argument's `name` holds a value or a placeholder, or its `value` repeats the flag";
    REGISTRY_REQUIREMENT = "MCP014" "registry-requirement" Warning ["mcp-server"] "a package does not meet what the official registry requires of its type (registry, base URL, image host, MCPB URL)";
    DROPPED_META = "MCP015" "dropped-meta" Warning ["mcp-server"] "`_meta` holds keys the official registry drops when publishing";
    MISSING_RUNTIME_HINT = "MCP016" "missing-runtime-hint" Warning ["mcp-server"] "a package gives `runtimeArguments` but no `runtimeHint` saying which runtime they are for";
    WRONG_SERVERS_KEY = "MCP017" "wrong-servers-key" Error rejects ["mcp-config"] "the servers are listed under the key another client reads (`servers` or `mcpServers`): this client loads none";
    CONFLICTING_TRANSPORT = "MCP018" "conflicting-transport" Error breaks ["mcp-config"] "a server's `type` contradicts its `command` or `url`, or it sets both";
    LITERAL_SECRET = "MCP019" "mcp-literal-secret" Error threat ["mcp-server", "mcp-config"] "a credential is written literally in `env`, `headers`, arguments, a URL or a default value";
    UNPINNED_PACKAGE_RUNNER = "MCP020" "unpinned-package-runner" Warning ["mcp-config"] "a server runs a package through `npx`, `uvx`, `pipx run`, … without pinning its version";
    PLAINTEXT_URL = "MCP021" "plaintext-mcp-url" Warning ["mcp-config"] "a server URL uses `http://` to a host other than this machine";
    DUPLICATE_NAME = "MCP022" "mcp-duplicate-name" Error breaks ["mcp-server", "mcp-config", "mcp-tools"] "two servers, inputs, headers, environment variables or listed tools share a name";
    UNUSED_INPUT = "MCP023" "unused-mcp-input" Warning ["mcp-config"] "an input is declared but no server references it";
    REMOTE_SERVER_IN_DESKTOP_CONFIG = "MCP024" "remote-server-in-desktop-config" Error breaks ["mcp-config"] "a server with a `url` in `claude_desktop_config.json`, which Claude Desktop reads only for servers it starts: it skips the entry";
    USER_SPECIFIC_PATH = "MCP025" "user-specific-path" Warning ["mcp-config"] "a shared configuration runs a path in one user's home folder (`/Users/…`, `/home/…`, `C:\\Users\\…`), which exists only on that machine";
    MISSPELT_SERVER_KEY = "MCP026" "misspelt-server-key" Error breaks ["mcp-config"] "a server key misspelt (`arg`, `comand`, `enviroment`) where the real one is missing: the client ignores it and starts the server without it";
    COMMAND_LINE_TOO_LONG = "MCP027" "command-line-too-long" Warning ["mcp-config"] "a server's command line (`command` and `args`) is longer than Windows starts (32,766 characters): toolc checks what fits";
}
