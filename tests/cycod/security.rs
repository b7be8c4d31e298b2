//! Security tags: a tool without one, and read tools that write (SEC021, SEC022).

use super::*;

// SEC021 missing-security-tag, SEC022 read-tool-writes

#[test]
fn security_tags() {
    expect(
        &BASE.replace("tags: [search, read]", "tags: [search]"),
        &["13:7 SEC021 warning this tool has no `read`, `write` or `run` tag"],
    );
    expect(
        &BASE.replace("tags: [search, read]\n", ""),
        &["1:1 SEC021 warning this tool has no `read`, `write` or `run` tag"],
    );
    silent(&BASE.replace("[search, read]", "[search, run]"));
}

#[test]
fn read_tools_that_write() {
    expect(
        &BASE.replace("{DIRECTORY}", "{DIRECTORY} > hits.txt"),
        &[
            "3:39 SEC022 warning this tool is tagged `read` but its command writes: a `>` redirection into a file",
        ],
    );
    expect(
        "steps:\n  - bash: git log\n  - bash: git push origin\ntags: [read]\n",
        &["3:11 SEC022 warning this tool is tagged `read` but its command writes: `git push`"],
    );
    expect(
        "bash: curl -s -X POST https://example.com\ntags: [read]\n",
        &["1:15 SEC022 warning this tool is tagged `read` but its command writes: `-X POST`"],
    );
    // Reads, redirections to /dev/null, and writes declared as such are fine.
    silent(&BASE.replace("{DIRECTORY}", "{DIRECTORY} 2>/dev/null | sort"));
    silent(
        &BASE
            .replace("{DIRECTORY}", "{DIRECTORY} > hits.txt")
            .replace("read]", "read, write]"),
    );
}
