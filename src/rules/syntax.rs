//! `SYN` rules (files that cannot be read as their syntax) and `TLC` rules (toolc's own
//! configuration, suppression comments and baseline).

use super::declare_rules;

declare_rules! {
    INVALID_YAML = "SYN001" "invalid-yaml" Error breaks [] "the file (or its front matter) is not valid YAML";
    INVALID_JSON = "SYN002" "invalid-json" Error breaks [] "the file is not valid JSON";
    DUPLICATE_KEY = "SYN003" "duplicate-key" Error breaks [] "a key appears twice in one mapping";
    ALIAS_EXPANSION_LIMIT = "SYN004" "alias-expansion-limit" Error breaks [] "YAML aliases expand the document beyond a safe size";
    NESTING_TOO_DEEP = "SYN005" "nesting-too-deep" Error breaks [] "the document is nested deeper than toolc reads";
    MULTIPLE_DOCUMENTS = "SYN006" "multiple-documents" Error breaks [] "a YAML stream holds more than one document where one is expected";
    INVALID_UTF8 = "SYN007" "invalid-utf8" Error breaks [] "the file is not valid UTF-8";
    BINARY_FILE = "SYN008" "binary-file" Error breaks [] "the file contains NUL bytes: it is binary, not a tool definition";
    EMPTY_FILE = "SYN009" "empty-file" Error breaks [] "the file is empty";
    MISSING_FRONT_MATTER = "SYN010" "missing-front-matter" Error breaks [] "the file does not start with a `---` front-matter block";
    UNCLOSED_FRONT_MATTER = "SYN011" "unclosed-front-matter" Error breaks [] "the front matter is opened with `---` but never closed";
    UNREADABLE_FILE = "SYN012" "unreadable-file" Error breaks [] "the file could not be read";
    UNUSED_SUPPRESSION = "TLC001" "unused-suppression" Warning [] "a `toolc: ignore` comment suppresses nothing";
    UNKNOWN_SUPPRESSION_CODE = "TLC002" "unknown-suppression-code" Warning [] "a `toolc: ignore` comment names a rule that does not exist";
    INVALID_CONFIG = "TLC003" "invalid-config" Error gate [] "`toolc.toml` is malformed or names unknown rules, formats or severities";
    STALE_BASELINE_ENTRY = "TLC004" "stale-baseline-entry" Warning [] "entries of the baseline match no finding any more";
    INVALID_BASELINE = "TLC005" "invalid-baseline" Error gate [] "the baseline file is missing or is not a toolc baseline";
    UNRECOGNIZED_FILE = "TLC006" "unrecognized-file" Warning [] "a file named on the command line, or misnamed where a format looks, is read by no format";
    CUSTOM_RULE_SELECTS_NOTHING = "TLC007" "custom-rule-selects-nothing" Warning [] "a custom rule's `given` selected nothing in any file it read";
    CUSTOM_RULE_NOT_FULLY_CHECKED = "TLC008" "custom-rule-not-fully-checked" Warning [] "a custom rule read all it may read of a file and stopped: the rest of the file was not checked by it";
    SECURITY_RULES_OFF_BELOW = "TLC009" "security-rules-off-below" Warning [] "a nested `toolc.toml` turns off or lowers security rules on its definitions, or excludes definitions, that the configuration above it checks";
}
