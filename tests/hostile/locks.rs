//! A lock toolc must read (`[lock] required = true` in the repository's own `toolc.toml`)
//! can be as large as the repository likes: a lock of entries for tools that do not exist
//! gave one LCK003 each, never capped, and its TOML took 37 times its size to read.

use super::*;

/// A lock of `n` entries, each for a tool that is not defined.
fn lock_of(n: usize) -> String {
    let mut text = String::from("version = 1\n");
    for i in 0..n {
        text.push_str(&format!(
            "\n[[tool]]\nname = \"gone-{i}\"\nformat = \"agentcli-manifest\"\npath = \"tools.json\"\nsha256 = \"{}\"\n",
            "0".repeat(64)
        ));
    }
    text
}

fn locked_repo(entries: usize) -> Repo {
    let repo = repo();
    repo.write("toolc.toml", b"[lock]\nrequired = true\n");
    repo.write("toolc.lock", lock_of(entries).as_bytes());
    repo
}

#[test]
fn a_lock_of_thousands_of_missing_tools_gives_a_capped_list() {
    let diags = diagnostics(&locked_repo(5_000));
    let missing = find(&diags, "LCK003", "toolc.lock");
    assert_eq!(missing.len(), 201, "200 findings and one for the rest");
    let rest = missing
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .is_some_and(|m| m.contains("4800 more"))
        })
        .unwrap_or_else(|| panic!("no line stands for the rest: {:#?}", missing.last()));
    assert_eq!(rest["severity"], "error");
}

/// 37x before (the whole lock's TOML tokens at once), 7.7x for 300,000 entries in release.
#[test]
fn a_lock_of_thirty_thousand_entries_is_read_in_little_memory() {
    let Some(small) = dense::peak_memory_of(&locked_repo(1), &["check", "--no-cache", "-q"]) else {
        return;
    };
    let lock = lock_of(30_000);
    let peak = dense::peak_memory_of(&locked_repo(30_000), &["check", "--no-cache", "-q"])
        .expect("measured before");
    let ratio = (peak - small) / lock.len() as f64;
    assert!(
        ratio <= 10.0,
        "a lock of {:.1} MB took {:.1} MiB more than a lock of one entry: {ratio:.1}x its size",
        lock.len() as f64 / 1e6,
        (peak - small) / 1048576.0
    );
}

/// A lock whose head (or one entry) is megabytes of tiny TOML values is refused unread: the
/// TOML parser holds up to a hundred times what it reads, and a head of 10 MB of `1,` took
/// 958 MB. `check --locked` reads it the same way.
#[test]
fn a_lock_piece_of_megabytes_is_refused_unread() {
    let Some(small) = dense::peak_memory_of(&locked_repo(1), &["check", "--no-cache", "-q"]) else {
        return;
    };
    let values = "1,".repeat(2_500_000);
    for lock in [
        format!("version = 1\nx = [{values}]\n"),
        format!("{}\n[[tool]]\nname = \"x\"\nx = [{values}]\n", lock_of(2)),
    ] {
        let repo = locked_repo(1);
        repo.write("toolc.lock", lock.as_bytes());
        let diags = diagnostics(&repo);
        let refused = find(&diags, "LCK004", "toolc.lock");
        assert!(
            refused[0]["message"]
                .as_str()
                .is_some_and(|m| m.contains("at most 1024 KiB")),
            "{refused:#?}"
        );
        for args in [
            &["check", "--no-cache", "-q"][..],
            &["check", "--no-cache", "-q", "--locked"],
        ] {
            let peak = dense::peak_memory_of(&repo, args).expect("measured before");
            assert!(
                peak - small < 3.0 * lock.len() as f64,
                "{args:?}: {:.0} MB for a lock of {} MB",
                (peak - small) / 1e6,
                lock.len() / 1_000_000
            );
        }
    }
}

/// A `server.json` whose `key` lists `n` items: an empty package or remote, and the last
/// one `last`.
fn server_listing(key: &str, n: usize, last: &str) -> String {
    let mut items = vec!["{}"; n.saturating_sub(1)];
    items.push(last);
    format!(
        r#"{{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json","name":"io.github.x/y","description":"d","version":"1.0.0","{key}":[{}]}}"#,
        items.join(",")
    )
}

/// `toolc lock` and `toolc diff` recorded each package and remote of a `server.json` as its
/// own field, as JSON, and copied every field again to hash the record: a million `{}`
/// packages took 170 times their size to lock and 113 times to diff. Past 256 the list is
/// recorded as one hash of its JSON, taken as it is read (about 4x now, release build), and a
/// change anywhere in it is still found.
#[test]
fn a_lock_or_diff_of_a_server_json_of_a_million_packages() {
    let peak = |text: &str, args: &[&str]| {
        let repo = common::change::history(&[("server.json", "{}")], &[]);
        repo.write("server.json", text.as_bytes());
        dense::peak_memory_of(&repo, args)
    };
    // Remotes are recorded by the same code.
    let dense = server_listing("packages", 1_000_000, "{}");
    for args in [&["lock", "-q"][..], &["diff", "--against", "HEAD", "-q"]] {
        let Some(small) = peak(&server_listing("packages", 1, "{}"), args) else {
            break;
        };
        let large = peak(&dense, args).expect("measured before");
        let ratio = (large - small) / dense.len() as f64;
        assert!(ratio <= 8.0, "{args:?}: {ratio:.1}x the file's size");
    }
    for key in ["packages", "remotes"] {
        let dense = server_listing(key, 300, "{}");
        let repo = common::change::history(&[("server.json", dense.as_str())], &[]);
        let changed = server_listing(key, 300, r#"{"url":"https://x.example"}"#);
        repo.write("server.json", changed.as_bytes());
        let out = run(&repo, &["diff", "--against", "HEAD"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("the {key} of MCP server `io.github.x/y` changed")),
            "{text}"
        );
    }
}

/// Every setting of a server that has no part of its own (an unknown top-level key of a
/// `server.json`, any key of a client's server but its command, arguments, URL and the like)
/// was a part of its own, as JSON: 400,000 of them took 42 times their size to lock. Past 256
/// they are one part, `settings`, a hash taken as they are read (6.8x release), and a change
/// to any of them is still drift.
#[test]
fn a_lock_of_400_thousand_settings_of_one_server() {
    let keys = |n: usize, last: &str| {
        let mut keys: Vec<String> = (0..n.saturating_sub(1))
            .map(|i| format!(r#""k{i}":1"#))
            .collect();
        keys.push(format!(r#""last":{last}"#));
        keys.join(",")
    };
    let files = [
        (
            "server.json",
            "io.github.x/y",
            r#"{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json","name":"io.github.x/y","description":"d","version":"1.0.0","#,
        ),
        (".mcp.json", "s", r#"{"mcpServers":{"s":{"command":"x","#),
    ];
    for (path, name, head) in files {
        let close = if path == "server.json" { "}" } else { "}}}" };
        let file = |n: usize, last: &str| format!("{head}{}{close}", keys(n, last));
        let lock = |text: &str| {
            let repo = repo();
            repo.write(path, text.as_bytes());
            dense::peak_memory_of(&repo, &["lock", "-q"])
        };
        let dense = file(400_000, "1");
        if let Some(small) = lock(&file(1, "1")) {
            let ratio = (lock(&dense).expect("measured before") - small) / dense.len() as f64;
            assert!(ratio <= 9.0, "{path}: {ratio:.1}x the file's size");
        }
        // Locked with 300 settings, then the last one changed.
        let repo = repo();
        repo.write(path, file(300, "1").as_bytes());
        run(&repo, &["lock", "-q"]);
        repo.write(path, file(300, "2").as_bytes());
        let out = run(&repo, &["check", "--locked", "--format", "json"]);
        let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
        let changed = format!("the settings of MCP server `{name}` changed");
        assert!(
            doc["diagnostics"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|d| d["code"] == "LCK005"
                    && d["message"]
                        .as_str()
                        .is_some_and(|m| m.starts_with(&changed))),
            "{doc:#}"
        );
    }
}

/// `toolc lock` held every tool lowered, every entry and the lock's whole text at once: an
/// agentcli manifest of 300,000 tools `{"name":"tN","command":["x"]}` took 86 times its size,
/// an `.mcp.json` of 300,000 servers `{"command":"x"}` 56 times (release build; an entry's
/// text alone is seven times a tool this small). Each entry's text goes to a scratch file as
/// it is made and is copied into the lock in its order, and the tree the load freed is given
/// back before the servers are parsed again for their records (9x in release; it had drifted
/// to 10.1-10.5x while the load's thread kept it). That parse packs the list of servers, read
/// one at a time, and the entries' names wait in one string: servers of no settings had
/// brought it back to 10.6x. The lock still lists every entry, in order.
#[test]
fn a_lock_of_many_small_tools_or_servers() {
    fn manifest(n: usize) -> String {
        let tools: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"name":"t{i}","command":["x"]}}"#))
            .collect();
        format!(r#"{{"tools":[{}]}}"#, tools.join(","))
    }
    fn config(n: usize) -> String {
        let servers: Vec<String> = (0..n)
            .map(|i| format!(r#""s{i}":{{"command":"x"}}"#))
            .collect();
        format!(r#"{{"mcpServers":{{{}}}}}"#, servers.join(","))
    }
    // A server of no settings, `"7":{}`: the lock's parse held an entry and the lock's
    // list a boxed name for each, together nine times these few bytes.
    fn empty_servers(n: usize) -> String {
        let servers: Vec<String> = (0..n).map(|i| format!(r#""{i}":{{}}"#)).collect();
        format!(r#"{{"mcpServers":{{{}}}}}"#, servers.join(","))
    }
    type Made = fn(usize) -> String;
    let cases: [(&str, Made, &str, usize); 3] = [
        ("tools.json", manifest, "[[tool]]\nname = \"t", 60_000),
        (".mcp.json", config, "[[server]]\nname = \"s", 60_000),
        (".mcp.json", empty_servers, "[[server]]\nname = \"", 200_000),
    ];
    for (path, file, table, n) in cases {
        let lock = |text: &str| {
            let repo = repo();
            repo.write(path, text.as_bytes());
            let peak = dense::peak_memory_of(&repo, &["lock", "-q"]);
            (repo, peak)
        };
        let Some(small) = lock(&file(1)).1 else {
            return;
        };
        let dense = file(n);
        let (repo, peak) = lock(&dense);
        let ratio = (peak.expect("measured before") - small) / dense.len() as f64;
        assert!(ratio <= 10.0, "{path}: {ratio:.1}x the file's size");
        let written = std::fs::read_to_string(repo.root.join("toolc.lock")).expect("a lock");
        let names: Vec<&str> = written
            .split(table)
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert_eq!(names.len(), n, "{path}: every entry is in the lock");
        assert!(
            names.is_sorted(),
            "{path}: the entries are in order of name"
        );
        assert_eq!(names.first(), Some(&"0"));
        assert_eq!(names.get(1), Some(&"1"));
        assert_eq!(names.get(2), Some(&"10"));
    }
}
