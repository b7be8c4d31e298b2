//! `SEC` rules: definitions that let a tool touch more than its author meant.

use super::declare_rules;

declare_rules! {
    PATH_TRAVERSAL = "SEC001" "path-traversal" Error ["dojops-tool", "dojops-dops"] "a path has a `..` segment that can escape the project";
    UNCHECKED_COMMAND_CHAINING = "SEC002" "unchecked-command-chaining" Warning ["dojops-tool"] "a verification command chains further commands the whitelist never checks";
    CREDENTIAL_PASSTHROUGH = "SEC010" "credential-passthrough" Info ["agentcli-manifest"] "a tool is handed an environment variable that looks like a credential";
    HOST_PATH_ACCESS = "SEC011" "host-path-access" Error rejects ["tool-request"] "a request names a path outside `/in/`, `/out/` and its working folder";
    PRIVILEGED_ACCESS = "SEC012" "privileged-access" Error rejects ["tool-request"] "a request asks for devices or privileges (`/dev/…`, `--privileged`, `sudo`)";
    EMBEDDED_SECRET = "SEC013" "embedded-secret" Error rejects ["tool-request", "agent-skill"] "a request or skill contains a credential (key, token, private key, literal password)";
    RAW_PARAMETER_REFERENCE = "SEC020" "raw-parameter-reference" Warning ["cycod-tool"] "a `{RAW:NAME}` reference inserts a parameter into a command without escaping";
    MISSING_SECURITY_TAG = "SEC021" "missing-security-tag" Warning ["cycod-tool"] "a cycod tool has no `read`, `write` or `run` tag, so it always needs approval";
    READ_TOOL_WRITES = "SEC022" "read-tool-writes" Warning ["cycod-tool"] "a tool tagged `read` runs a command that obviously writes";
    UNCONFIRMED_ACTION_TOOL = "SEC030" "unconfirmed-action-tool" Warning ["agent-md"] "an agent may call an `action` tool without human confirmation";
    MISSPELT_SAFETY_KEY = "SEC031" "misspelt-safety-key" Error [] "an unknown key is a near misspelling of a key that sets an approval, confirmation, permission, policy or network gate";
    DOWNLOAD_AND_EXECUTE = "SEC040" "download-and-execute" Warning ["agent-skill"] "a skill tells the agent to run a download (`curl … | sh`, `bash <(wget …)`)";
}
