//! `SEC` rules: definitions that let a tool touch more than its author meant, and texts
//! that turn the model against its user. SEC013 and SEC040–SEC070 apply to every format
//! (they are checked once, in `src/security/`).

use super::declare_rules;

declare_rules! {
    PATH_TRAVERSAL = "SEC001" "path-traversal" Error threat ["dojops-tool", "dojops-dops"] "a path has a `..` segment that can escape the project";
    UNCHECKED_COMMAND_CHAINING = "SEC002" "unchecked-command-chaining" Warning ["dojops-tool"] "a verification command chains further commands the whitelist never checks";
    PROGRAM_OUTSIDE_REPOSITORY = "SEC003" "program-outside-repository" Warning ["agentcli-manifest", "agent-skill"] "a program the definition runs is a symbolic link to a file outside the repository";
    FILES_NOT_READ = "SEC004" "files-not-read" Warning ["agent-skill"] "a skill holds more files than toolc lists, names more links and paths than it follows, leads to more files or to a file larger than it reads: the rest, scripts among them, were not checked";
    CREDENTIAL_PASSTHROUGH = "SEC010" "credential-passthrough" Info ["agentcli-manifest"] "a tool is handed an environment variable that looks like a credential";
    HOST_PATH_ACCESS = "SEC011" "host-path-access" Error rejects ["tool-request"] "a request names a path outside `/in/`, `/out/` and its working folder";
    PRIVILEGED_ACCESS = "SEC012" "privileged-access" Error rejects ["tool-request"] "a request asks for devices or privileges (`/dev/…`, `--privileged`, `sudo`)";
    EMBEDDED_SECRET = "SEC013" "embedded-secret" Error threat [] "a file contains a credential (key, token, private key, literal password or header)";
    RAW_PARAMETER_REFERENCE = "SEC020" "raw-parameter-reference" Warning ["cycod-tool"] "a `{RAW:NAME}` reference inserts a parameter into a command without escaping";
    MISSING_SECURITY_TAG = "SEC021" "missing-security-tag" Warning ["cycod-tool"] "a cycod tool has no `read`, `write` or `run` tag, so it always needs approval";
    READ_TOOL_WRITES = "SEC022" "read-tool-writes" Warning ["cycod-tool"] "a tool tagged `read` runs a command that obviously writes";
    UNCONFIRMED_ACTION_TOOL = "SEC030" "unconfirmed-action-tool" Warning ["agent-md"] "an agent may call an `action` tool without human confirmation";
    MISSPELT_SAFETY_KEY = "SEC031" "misspelt-safety-key" Error breaks [] "an unknown key is a near misspelling of a key that sets an approval, confirmation, permission, policy or network gate";
    DOWNLOAD_AND_EXECUTE = "SEC040" "download-and-execute" Error threat [] "a command, or an instruction the agent follows, runs what it downloads (`curl … | sh`, `bash <(wget …)`)";
    DECODE_AND_EXECUTE = "SEC041" "decode-and-execute" Error threat [] "a command runs what it decodes (`base64 -d | sh`, `powershell -enc`)";
    REVERSE_SHELL = "SEC042" "reverse-shell" Error threat [] "a command connects a shell to a remote host (`nc -e`, `/dev/tcp/`)";
    DESTRUCTIVE_COMMAND = "SEC043" "destructive-command" Error threat [] "a command deletes the root or home folder recursively (`rm -rf /`, `rm -rf ~`)";
    WORLD_WRITABLE = "SEC044" "world-writable-permissions" Warning [] "a command makes files writable by every user (`chmod 777`) or changes permissions recursively on the root, a system or the home folder";
    PRIVILEGE_ESCALATION = "SEC045" "privilege-escalation" Warning [] "a command runs with root privileges (`sudo`, `doas`) or keeps them for later (a `sudoers` entry, a set-user-id bit)";
    EXFILTRATION_CHAIN = "SEC046" "exfiltration-chain" Error threat [] "a command or script reads a secret (a credential store, the environment, a token) and sends it to the network";
    UNTRUSTED_INSTALL = "SEC047" "untrusted-install" Warning [] "a command installs code from a URL, another package index or an unpinned git source";
    PERSISTENCE = "SEC048" "persistence" Warning [] "a command makes something run again later: a crontab, a shell start-up file, launchd, systemd, `authorized_keys`, a Run key";
    OPAQUE_PROGRAM = "SEC049" "opaque-program" Warning ["agent-skill"] "the instructions run a program the skill ships that cannot be read as text (a binary)";
    INSTRUCTION_OVERRIDE = "SEC050" "instruction-override" Warning [] "text tells the model to ignore its instructions or keep something from the user, or poses as a system message";
    SENSITIVE_FILE_ACCESS = "SEC051" "sensitive-file-access" Warning [] "text asks the model to read keys, credentials or agent configuration (`~/.ssh/id_rsa`, `mcp.json`)";
    EXFILTRATION = "SEC052" "exfiltration-instruction" Warning [] "text asks the model to send conversation or secret data out, or embeds an image URL that carries data";
    TOOL_POISONING = "SEC053" "tool-poisoning" Error threat [] "one tool combines independent signs of poisoning: hiding, reading a sensitive file, sending data out";
    SIDE_CHANNEL_PARAMETER = "SEC054" "side-channel-parameter" Warning [] "a parameter name is a side channel or a sentence (`sidenote`, `note_to_assistant`)";
    INSTRUCTION_IN_VALUE = "SEC055" "instruction-in-schema-value" Warning [] "an enum value, default or example holds instructions to the model";
    TOOL_SHADOWING = "SEC056" "tool-shadowing" Warning [] "a tool's text tells the model how to call another tool of the repository";
    COMMANDS_NOT_READ = "SEC057" "commands-not-read" Warning [] "a file's instructions hold more different code than toolc reads for dangerous commands, or a script a server starts is too large to read: the rest was not checked";
    HIDDEN_CHARACTER_IN_NAME = "SEC060" "hidden-character-in-name" Error threat [] "a name, id, enum value, endpoint or command holds an invisible or bidirectional character";
    HIDDEN_CHARACTER = "SEC061" "hidden-character" Warning [] "text the model reads holds an invisible or bidirectional character, or hidden tag characters";
    MIXED_SCRIPT_NAME = "SEC062" "mixed-script-name" Error threat [] "a tool or parameter name mixes scripts (a Cyrillic `е` among Latin letters)";
    CONFUSABLE_NAME = "SEC063" "confusable-name" Error threat [] "a tool name looks the same as another tool's name (UTS #39 confusables)";
    PLAINTEXT_CREDENTIALS = "SEC070" "plaintext-credentials" Error threat [] "credentials are sent over plain `http://`";
}
