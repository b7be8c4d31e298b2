//! Commands and steps, platforms, shells and timeouts (CYC005 to CYC008, CYC014 to CYC021).

use super::*;

// CYC005 missing-command, CYC006 multiple-commands

#[test]
fn a_tool_needs_a_command() {
    expect(
        &BASE.replace("bash: grep -r \"{PATTERN}\" {DIRECTORY}\n", ""),
        &[
            "1:1 CYC005 error this tool has nothing to run: it has none of `run`, `bash`, `cmd`, `pwsh`, `python`, `script`, `tool`, `mcp` or `steps`",
        ],
    );
    expect(
        &BASE.replace("bash: grep -r \"{PATTERN}\" {DIRECTORY}", "bash: \"\""),
        &["3:1 CYC005 error this tool has nothing to run: `bash` is empty"],
    );
    expect(
        "steps: []\ntags: [read]\n",
        &["1:1 CYC005 error this tool has nothing to run: `steps` is empty"],
    );
}

#[test]
fn several_commands_name_the_one_that_runs() {
    expect(
        &BASE.replace(
            "bash: grep",
            "run: grep -r {PATTERN} {DIRECTORY}\nbash: grep",
        ),
        &["4:1 CYC006 warning `bash` never runs: `run` is also set and takes precedence"],
    );
    expect(
        "steps:\n  - bash: ls\ncmd: dir\ntags: [read]\n",
        &["3:1 CYC006 warning `cmd` never runs: `steps` is also set and takes precedence"],
    );
}

// CYC007 step-multiple-commands, CYC005 for steps, CYC008 duplicate-step-name

#[test]
fn each_step_runs_exactly_one_command() {
    expect(
        "steps:\n  - name: list\n    bash: ls\n    cmd: dir\n  - name: empty\ntags: [read]\n",
        &[
            "4:5 CYC007 error step `list` sets both `bash` and `cmd`",
            "5:5 CYC005 error step `empty` has nothing to run: it has no command option",
        ],
    );
    silent("steps:\n  - bash: ls\n  - run: ls\ntags: [read]\n");
}

#[test]
fn step_names_are_unique_counting_default_names() {
    expect(
        "steps:\n  - name: a\n    bash: ls\n  - name: a\n    bash: ls\ntags: [read]\n",
        &["4:11 CYC008 error a step named `a` is already defined in this tool"],
    );
    expect(
        "steps:\n  - name: step2\n    bash: ls\n  - bash: ls\ntags: [read]\n",
        &[
            "4:5 CYC008 error step 2 has no name, so it is called `step2`, a name an earlier step already has",
        ],
    );
    silent(
        "steps:\n  - bash: ls\n  - bash: echo {step1.output}\n  - name: last\n    bash: echo {step2.exit-code}\ntags: [read]\n",
    );
}

// CYC014 unknown-step-reference, CYC015 forward-step-reference, CYC016 unknown-step-property

#[test]
fn step_references() {
    silent(STEPS);
    expect(
        &STEPS.replace("{fetch.output}", "{fetc.output}"),
        &["5:17 CYC014 error `{fetc.output}` refers to a step `fetc` this tool does not have"],
    );
    expect(
        &STEPS.replace("{fetch.output}", "{fetch.outptu}"),
        &["5:17 CYC016 error `{fetch.outptu}` reads `outptu`, which a step does not have"],
    );
    expect(
        &STEPS.replace("https://example.com", "https://example.com/{count.stdout}"),
        &["3:39 CYC015 error `{count.stdout}` reads the output of step `count`, which runs later"],
    );
    expect(
        &STEPS.replace("{fetch.output}", "{count.exit-code}"),
        &["5:17 CYC015 error step `count` reads its own output with `{count.exit-code}`"],
    );
    for property in ["output", "stdout", "stderr", "exit-code"] {
        silent(&STEPS.replace("{fetch.output}", &format!("{{fetch.{property}}}")));
    }
    // `{obj.attr}` in Python is not a step reference.
    silent("python: |\n  print(f\"{self.name}\")\ntags: [read]\n");
}

// CYC017 invalid-platform, CYC018 windows-only-shell, CYC019 conflicting-shell

#[test]
fn platforms_and_shells() {
    expect(
        &BASE.replace("[windows, linux, macos]", "[windows, linux, osx]"),
        &["14:29 CYC017 error platform `osx` is not `windows`, `linux` or `macos`"],
    );
    expect(
        &BASE
            .replace("bash: grep -r", "cmd: findstr")
            .replace("[windows, linux, macos]", "[linux, macos]"),
        &["3:1 CYC018 warning `cmd` runs only on Windows, but `platforms` does not list `windows`"],
    );
    silent(&BASE.replace("bash: grep -r", "cmd: findstr"));
    expect(
        &BASE.replace("timeout: 10000", "timeout: 10000\nshell: pwsh"),
        &[
            "16:8 CYC019 warning `shell: pwsh` contradicts `bash:`, which already runs its script with bash",
        ],
    );
    silent(
        &BASE
            .replace("bash: grep -r", "script: Select-String")
            .replace("timeout: 10000", "timeout: 10000\nshell: pwsh"),
    );
}

// CYC020 invalid-timeout, CYC021 short-timeout

#[test]
fn timeouts() {
    expect(
        &BASE.replace("timeout: 10000", "timeout: 0"),
        &["15:10 CYC020 error `timeout` must be a positive number of milliseconds, found `0`"],
    );
    expect(
        &BASE.replace("timeout: 10000", "timeout: 1.5"),
        &[
            "15:10 CYC020 error `timeout` must be a whole number of milliseconds, found `1.5` (a fraction)",
        ],
    );
    expect(
        &BASE.replace("timeout: 10000", "timeout: 30s"),
        &[
            "15:10 CYC020 error `timeout` must be a whole number of milliseconds, found `30s` (not a number)",
        ],
    );
    expect(
        &BASE.replace("timeout: 10000", "timeout: 30"),
        &["15:10 CYC021 warning `timeout` is 30 ms, too short for a process to start and finish"],
    );
    silent(&BASE.replace("timeout: 10000", "timeout: 100"));
    silent(&BASE.replace("timeout: 10000", "timeout: \"15000\""));
    expect(
        "steps:\n  - bash: ls\n    timeout: -5\ntags: [read]\n",
        &[
            "3:14 CYC020 error `steps[0].timeout` must be a positive number of milliseconds, found `-5`",
        ],
    );
}
