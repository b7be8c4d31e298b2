//! `SKL` rules: Agent Skills (`SKILL.md` and the folder it heads).

use super::declare_rules;

declare_rules! {
    MISSING_REQUIRED_FIELD = "SKL001" "skill-missing-required-field" Error breaks ["agent-skill"] "`name` or `description` is missing or empty";
    WRONG_FIELD_TYPE = "SKL002" "skill-wrong-field-type" Error breaks ["agent-skill"] "a front-matter value has the wrong type (a list or mapping where the spec wants a string, `metadata` not a mapping of strings)";
    INVALID_NAME = "SKL003" "invalid-skill-name" Error breaks ["agent-skill"] "`name` is not 1–64 lowercase letters, digits and single inner hyphens";
    NAME_FOLDER_MISMATCH = "SKL004" "skill-name-folder-mismatch" Error breaks ["agent-skill"] "`name` is not the name of the skill's folder";
    FIELD_LENGTH = "SKL005" "skill-field-length" Error breaks ["agent-skill"] "`description` is over 1024 characters, or `compatibility` is empty or over 500";
    UNKNOWN_KEY = "SKL006" "skill-unknown-key" Error breaks ["agent-skill"] "a front-matter key that neither the spec nor a known agent defines";
    DIALECT_KEY = "SKL007" "skill-dialect-key" Warning ["agent-skill"] "a front-matter key only some agents read (Claude Code, VS Code): the spec and its reference validator reject it";
    MALFORMED_ALLOWED_TOOLS = "SKL008" "malformed-allowed-tools" Warning ["agent-skill"] "`allowed-tools` is not a space-separated list of `Tool` or `Tool(pattern)` entries";
    UNQUOTED_SCALAR = "SKL009" "skill-unquoted-scalar" Warning ["agent-skill"] "a value the spec types as a string is written as a number or boolean";
    UNPORTABLE_FRONT_MATTER = "SKL010" "unportable-front-matter" Error breaks ["agent-skill"] "front matter the reference validator refuses or cuts short (a byte-order mark, `---` inside it, flow collections, anchors, tags, tabs)";
    BROKEN_REFERENCE = "SKL011" "broken-skill-reference" Error breaks ["agent-skill"] "a relative link or script path in `SKILL.md` names no file of the skill";
    REFERENCE_OUTSIDE_SKILL = "SKL012" "reference-outside-skill" Error breaks ["agent-skill"] "a link climbs out of the skill's folder (`../`) or is an absolute path";
    FILE_TOO_LONG = "SKL013" "skill-file-too-long" Warning ["agent-skill"] "`SKILL.md` is over the recommended 500 lines";
    BODY_OVER_BUDGET = "SKL014" "skill-body-over-budget" Warning ["agent-skill"] "the instructions are far over the recommended 5,000 tokens";
    DEEP_REFERENCE_CHAIN = "SKL015" "deep-reference-chain" Warning ["agent-skill"] "a file of the skill is reached only through another referenced file, more than one level deep";
    SCRIPT_NOT_EXECUTABLE = "SKL016" "skill-script-not-executable" Warning ["agent-skill"] "a script the instructions run by its path is not executable or has no `#!` line";
    DUPLICATE_NAME = "SKL017" "duplicate-skill-name" Error breaks ["agent-skill"] "two skills in one skills folder share a `name`";
    UNREFERENCED_FILE = "SKL018" "unreferenced-skill-file" Warning ["agent-skill"] "a file ships in the skill's folder but `SKILL.md` never leads to it";
    VAGUE_DESCRIPTION = "SKL019" "vague-skill-description" Info preview ["agent-skill"] "the description does not say what the skill does and when to use it";
    UNPORTABLE_NAME = "SKL020" "unportable-skill-name" Warning ["agent-skill"] "a name the reference validator accepts only after trimming or normalizing it, or with letters outside `a-z`";
    REFERENCE_CASE_MISMATCH = "SKL021" "reference-case-mismatch" Error breaks ["agent-skill"] "a path in the skill names a file of the skill in another letter case (`REFERENCE.md` for `reference.md`): it is found on macOS and Windows, not on Linux";
    UNCLOSED_CODE_FENCE = "SKL022" "unclosed-code-fence" Warning ["agent-skill"] "a code block of `SKILL.md` is opened with ``` or ~~~ and never closed";
}
