//! `CYC` rules: cycod custom tools (`.cycod/tools/*.yaml`).

use super::declare_rules;

declare_rules! {
    UNKNOWN_KEY = "CYC001" "cycod-unknown-key" Error breaks ["cycod-tool"] "a key the cycod tool model does not have (cycod rejects the file)";
    WRONG_FIELD_TYPE = "CYC002" "cycod-wrong-field-type" Error breaks ["cycod-tool"] "a field has the wrong type";
    NAME_DIFFERS_FROM_FILE = "CYC003" "name-differs-from-file" Warning ["cycod-tool"] "`name` is not the file name, so the tool answers to a name its file does not show";
    DUPLICATE_TOOL_NAME = "CYC004" "cycod-duplicate-tool-name" Error breaks ["cycod-tool"] "two tools of one `.cycod/tools` folder share a name";
    MISSING_COMMAND = "CYC005" "missing-command" Error breaks ["cycod-tool"] "a tool or step has nothing to run";
    MULTIPLE_COMMANDS = "CYC006" "multiple-commands" Warning ["cycod-tool"] "a tool sets several command options; only one of them runs";
    STEP_MULTIPLE_COMMANDS = "CYC007" "step-multiple-commands" Error breaks ["cycod-tool"] "a step sets more than one command option";
    DUPLICATE_STEP_NAME = "CYC008" "duplicate-step-name" Error breaks ["cycod-tool"] "two steps of a tool share a name";
    INVALID_PARAMETER_TYPE = "CYC009" "invalid-parameter-type" Error breaks ["cycod-tool"] "a parameter type is not `string`, `number`, `boolean` or `array`";
    INVALID_PARAMETER_DEFAULT = "CYC010" "invalid-parameter-default" Error breaks ["cycod-tool"] "a parameter default is not a valid value of its type";
    REQUIRED_WITH_DEFAULT = "CYC011" "required-with-default" Info ["cycod-tool"] "a required parameter has a default that is never used";
    UNKNOWN_PARAMETER_REFERENCE = "CYC012" "unknown-parameter-reference" Error breaks ["cycod-tool"] "a `{NAME}` reference names no parameter of the tool";
    UNUSED_PARAMETER = "CYC013" "unused-parameter" Warning ["cycod-tool"] "a parameter is never referenced";
    UNKNOWN_STEP_REFERENCE = "CYC014" "unknown-step-reference" Error breaks ["cycod-tool"] "a `{step.output}` reference names no step of the tool";
    FORWARD_STEP_REFERENCE = "CYC015" "forward-step-reference" Error breaks ["cycod-tool"] "a step reads the output of itself or of a later step";
    UNKNOWN_STEP_PROPERTY = "CYC016" "unknown-step-property" Error breaks ["cycod-tool"] "a step reference reads a property other than `output`, `stdout`, `stderr` or `exit-code`";
    INVALID_PLATFORM = "CYC017" "invalid-platform" Error breaks ["cycod-tool"] "a platform is not `windows`, `linux` or `macos`";
    WINDOWS_ONLY_SHELL = "CYC018" "windows-only-shell" Warning ["cycod-tool"] "a `cmd` or Windows PowerShell command in a tool whose platforms lack `windows`";
    CONFLICTING_SHELL = "CYC019" "conflicting-shell" Warning ["cycod-tool"] "`shell` names another shell than the `bash`/`cmd`/`pwsh`/`python` option it sits beside";
    INVALID_TIMEOUT = "CYC020" "cycod-invalid-timeout" Error breaks ["cycod-tool"] "`timeout` is not a positive whole number of milliseconds";
    SHORT_TIMEOUT = "CYC021" "short-timeout" Warning ["cycod-tool"] "`timeout` is under 100 ms, too short for any process to finish";
    MISSING_TOOL_NAME = "CYC022" "missing-tool-name" Error breaks ["cycod-tool"] "a tool has an empty name, or an inline tool has none";
    DEFAULT_NAMES_PARAMETER = "CYC023" "default-names-parameter" Warning ["cycod-tool"] "a parameter's default names a parameter declared before it, which cycod has already substituted: the braces reach the command as written";
}
