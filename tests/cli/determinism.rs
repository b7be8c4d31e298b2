//! Determinism: the output order does not depend on the number of threads.

use super::*;

// --- determinism ----------------------------------------------------------------------------

#[test]
fn output_order_does_not_depend_on_thread_count() {
    let repo = Repo::new();
    for i in 0..50 {
        let manifest = VALID_TOOL
            .replace("name: my-tool", &format!("name: Tool_{i}\nextra{i}: x"))
            .replace("spec: 1", if i % 3 == 0 { "spec: 2" } else { "spec: 1" })
            .replace("yaml\n", if i % 5 == 0 { "xml\n" } else { "yaml\n" });
        tool_at(&repo, ".dojops/tools", &format!("t{i}"), &manifest);
    }
    // Same name in two tools: a cross-file diagnostic with a related place.
    tool(&repo, "dup-a", "same");
    tool(&repo, "dup-b", "same");
    let run = |threads: &str| {
        let output = Command::cargo_bin("toolc")
            .expect("the toolc binary is built")
            .current_dir(&repo.root)
            .args(["check", "--format", "json"])
            .env("RAYON_NUM_THREADS", threads)
            .timeout(Duration::from_secs(20))
            .output()
            .expect("toolc runs");
        assert_eq!(code(&output), 1);
        output.stdout
    };
    let one = run("1");
    let two = run("2");
    let doc: Value = serde_json::from_slice(&one).expect("JSON");
    assert!(
        doc["diagnostics"].as_array().map_or(0, Vec::len) > 100,
        "{doc:#}"
    );
    assert!(one == two, "output differs between 1 and 2 threads");
    assert!(run("8") == one, "output differs between 1 and 8 threads");
    let human = |threads: &str| {
        Command::cargo_bin("toolc")
            .expect("the toolc binary is built")
            .current_dir(&repo.root)
            .args(["check", "--no-color"])
            .env("RAYON_NUM_THREADS", threads)
            .timeout(Duration::from_secs(20))
            .output()
            .expect("toolc runs")
            .stdout
    };
    assert!(human("1") == human("2"), "human output differs");
}
