//! Property tests: random bytes and random mutations, no panic.

use super::*;

#[test]
fn check_survives_random_mutations_of_a_valid_repository() {
    let mut rng = rng(0x2545_f491_4f6c_dd1d);
    let repo = Repo::new();
    let manifest = ".dojops/tools/my-tool/tool.yaml";
    let schema = ".dojops/tools/my-tool/input.schema.json";
    for i in 0..150 * scale() {
        let tool = mutate(&mut rng, VALID_TOOL.as_bytes());
        let input = if i % 3 == 0 {
            mutate(&mut rng, VALID_SCHEMA.as_bytes())
        } else {
            VALID_SCHEMA.as_bytes().to_vec()
        };
        repo.write(manifest, &tool);
        repo.write(schema, &input);
        let result = std::panic::catch_unwind(|| {
            let report = check_dir(&repo.root).expect("no config in this repository");
            // The emitters take spans from every pass: render both.
            let _ = report.render(OutputFormat::Human, &repo.root, true);
            let _ = report.render(OutputFormat::Json, &repo.root, false);
        });
        assert!(
            result.is_ok(),
            "check panicked on iteration {i}\ntool.yaml: {:?}\ninput.schema.json: {:?}",
            String::from_utf8_lossy(&tool),
            String::from_utf8_lossy(&input)
        );
    }
}

#[test]
fn check_survives_random_bytes_as_every_file() {
    let mut rng = rng(0xdead_beef_cafe_f00d);
    let repo = Repo::new();
    for i in 0..60 * scale() {
        let tool = rng.bytes(200);
        let schema = rng.bytes(100);
        let policy = rng.bytes(100);
        let skill = rng.bytes(200);
        repo.write(".dojops/tools/x/tool.yaml", &tool);
        repo.write(".dojops/tools/x/input.schema.json", &schema);
        repo.write(".dojops/policy.yaml", &policy);
        repo.write(".dojops/skills/x.dops", &skill);
        let result = std::panic::catch_unwind(|| {
            let report = check_dir(&repo.root).expect("no config in this repository");
            let _ = report.render(OutputFormat::Human, &repo.root, false);
        });
        assert!(result.is_ok(), "check panicked on iteration {i}");
    }
}
