//! Unit tests of `writes.rs`.

use super::*;

fn found(script: &str, dialect: Dialect) -> Option<(String, String)> {
    first_write(script, dialect).map(|w| (script[w.start..w.end].to_string(), w.what))
}

fn hit(script: &str) -> String {
    found(script, Dialect::Posix)
        .map(|(s, _)| s)
        .unwrap_or_else(|| panic!("no write found in {script:?}"))
}

#[test]
fn posix_writes() {
    assert_eq!(hit("rm -f x"), "rm");
    assert_eq!(hit("ls && /bin/rm x"), "/bin/rm");
    assert_eq!(hit("echo hi > out.txt"), ">");
    assert_eq!(hit("echo hi 2>> log"), "2>>");
    assert_eq!(hit("git -C repo push origin"), "git -C repo push");
    assert_eq!(hit("curl -s -X POST https://x"), "-X POST");
    assert_eq!(hit("curl -XDELETE https://x"), "-XDELETE");
    assert_eq!(hit("curl -d @f https://x"), "-d");
    assert_eq!(hit("curl -sSLO https://x"), "-sSLO");
    assert_eq!(hit("sed -i 's/a/b/' f"), "sed -i");
    assert_eq!(hit("x=$(mv a b)"), "mv");
    assert_eq!(hit("gh api --method POST repos/x"), "--method POST");
    assert_eq!(hit("gh pr comment 1 --body x"), "gh pr comment");
    assert_eq!(hit("if [ -n x ]; then\n  sudo rm -rf /tmp/x\nfi"), "rm");
    assert_eq!(hit("cat << EOF > out.json\n{\"a\": 1}\nEOF"), ">");
    assert_eq!(hit("wget https://x/file"), "wget");
}

#[test]
fn posix_reads_are_silent() {
    for script in [
        "curl -s 'wttr.in/{LOCATION}?format={FORMAT}'",
        "grep -r -i \"x > y\" . --include=\"*.rs\"",
        "echo '{a}' | jq 'map(select(.count > 5))'",
        "ls 2>/dev/null; ls >/dev/null 2>&1",
        "cmd 2>&1 | tee",
        "# rm everything\nls",
        "cat <<'EOF'\nrm -rf / > x\nEOF\necho done",
        "jq -r '.[] | \"\\(.author): \\(.count) commits\"'",
        "curl -s -o /dev/null -w '%{http_code}' https://x",
        "wget -qO- https://x",
        "git log --oneline; git status",
        "gh pr view 1 --json commits | jq -r '.commits[-1].oid'",
        "echo \"a > b\" 'c > d'",
        "cat < input.txt | sort",
    ] {
        assert_eq!(found(script, Dialect::Posix), None, "{script}");
    }
}

#[test]
fn other_dialects() {
    assert_eq!(
        found("dir & del /q x", Dialect::Cmd).map(|x| x.0),
        Some("del".into())
    );
    assert_eq!(found("dir > nul", Dialect::Cmd), None);
    assert_eq!(
        found("Get-ChildItem | Remove-Item", Dialect::Pwsh).map(|x| x.0),
        Some("Remove-Item".into())
    );
    assert_eq!(
        found("Invoke-RestMethod -Uri $u -Method Post", Dialect::Pwsh).map(|x| x.0),
        Some("-Method Post".into())
    );
    assert_eq!(found("Get-Content x > $null", Dialect::Pwsh), None);
    // `run` is not a shell: `>` is an argument.
    assert_eq!(found("echo > x", Dialect::Process), None);
    assert_eq!(
        found("rm x", Dialect::Process).map(|x| x.0),
        Some("rm".into())
    );
    assert_eq!(
        found("import os\nos.remove(p)\n", Dialect::Python).map(|x| x.0),
        Some("os.remove".into())
    );
    assert_eq!(
        found("with open(p, 'w') as f:\n  f.write(x)\n", Dialect::Python).map(|x| x.0),
        Some("open".into())
    );
    assert_eq!(
        found(
            "data = open(p).read()\nprint(data['{C}'])\n",
            Dialect::Python
        ),
        None
    );
}

#[test]
fn random_scripts_do_not_panic() {
    // A small deterministic generator over the characters the lexer treats specially.
    let alphabet: Vec<char> = "ab <>|&;()'\"`\\$#\n\t2-=/{}é日EOF".chars().collect();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..20_000 {
        let mut script = String::new();
        for _ in 0..(state % 40) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            script.push(alphabet[(state % alphabet.len() as u64) as usize]);
        }
        for d in [
            Dialect::Posix,
            Dialect::Cmd,
            Dialect::Pwsh,
            Dialect::Process,
            Dialect::Python,
        ] {
            if let Some(w) = first_write(&script, d) {
                assert!(
                    w.start <= w.end && script.get(w.start..w.end).is_some(),
                    "{script:?}"
                );
            }
        }
    }
}

#[test]
fn hostile_input_does_not_panic() {
    for s in [
        "'", "\"", "\\", "<<", "<<-", "<< EOF", "é>ü", "2>", ">&", "`", "$(", "\"\\", "`\u{e9}",
    ] {
        for d in [
            Dialect::Posix,
            Dialect::Cmd,
            Dialect::Pwsh,
            Dialect::Process,
            Dialect::Python,
        ] {
            let _ = first_write(s, d);
        }
    }
}
