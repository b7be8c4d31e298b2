//! `SHC` rules: ShellCheck's findings on the shell scripts definitions embed, one rule per
//! ShellCheck severity (its own code, `SC2086`, is in the message). Checked in
//! `src/security/shellcheck.rs`, only when ShellCheck is installed.

use super::declare_rules;

declare_rules! {
    SHELLCHECK_ERROR = "SHC001" "shellcheck-error" Error breaks [] "ShellCheck finds an error in an embedded shell script";
    SHELLCHECK_WARNING = "SHC002" "shellcheck-warning" Warning [] "ShellCheck warns about an embedded shell script";
    SHELLCHECK_INFO = "SHC003" "shellcheck-info" Info [] "ShellCheck has a style or info note on an embedded shell script";
    SHELLCHECK_SKIPPED = "SHC004" "shellcheck-skipped" Info [] "ShellCheck was not run on an embedded shell script, or was stopped on it";
}
