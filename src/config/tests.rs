//! Unit tests of `toolc.toml` loading.

use super::*;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(
        SourceFile::new(
            "toolc.toml".into(),
            "toolc.toml".into(),
            FormatId::Config,
            text.into(),
        ),
        PathBuf::from("/repo"),
    )
}

/// A fresh folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolc-config-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp folder");
    dir
}

#[cfg(unix)]
#[test]
fn a_found_config_linked_out_of_the_repository_is_not_read() {
    let outside = temp_dir("outside");
    std::fs::write(outside.join("secrets"), "API_TOKEN=hunter2-not-toml\n").expect("write");
    let repo = temp_dir("repo");
    std::fs::create_dir(repo.join(".git")).expect("mkdir .git");
    std::os::unix::fs::symlink(outside.join("secrets"), repo.join(FILE_NAME)).expect("link");
    let err = Config::discover(&repo, None).expect_err("refused");
    let text = format!("{err}");
    assert!(text.contains("outside the repository"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    // A link that stays inside the repository is read as usual.
    std::fs::write(repo.join("shared.toml"), "[rules]\nDOJ003 = \"off\"\n").expect("write");
    std::fs::remove_file(repo.join(FILE_NAME)).expect("unlink");
    std::os::unix::fs::symlink(repo.join("shared.toml"), repo.join(FILE_NAME)).expect("link");
    assert!(Config::discover(&repo, None).is_ok());
    let _ = std::fs::remove_dir_all(&repo);
    let _ = std::fs::remove_dir_all(&outside);
}

#[cfg(unix)]
#[test]
fn a_device_or_a_huge_file_is_refused_without_reading_it_all() {
    let cwd = temp_dir("device");
    let err = Config::discover(&cwd, Some(Path::new("/dev/zero"))).expect_err("refused");
    assert!(format!("{err}").contains("not a regular file"), "{err}");
    let big = cwd.join("big.toml");
    std::fs::write(&big, vec![b'#'; 2 * 1024 * 1024]).expect("write");
    let err = Config::discover(&cwd, Some(&big)).expect_err("refused");
    assert!(format!("{err}").contains("larger than 1 MiB"), "{err}");
    let _ = std::fs::remove_dir_all(&cwd);
}

#[test]
fn settings_by_code_name_prefix_and_override() {
    let cfg = parse("[rules]\nDOJ = \"off\"\ninvalid-tool-name = \"warning\"\n[[overrides]]\npaths = [\"legacy/**\"]\nrules = { DOJ003 = \"off\" }\n").unwrap();
    let rule = rules::lookup("DOJ003").unwrap();
    assert_eq!(
        cfg.setting(rule, Path::new("/repo/a/tool.yaml")),
        Setting::Level(Severity::Warning)
    );
    assert_eq!(
        cfg.setting(rule, Path::new("/repo/legacy/x/tool.yaml")),
        Setting::Off
    );
    assert_eq!(
        cfg.setting(rules::lookup("DOJ001").unwrap(), Path::new("/repo/a")),
        Setting::Off
    );
}

#[test]
fn bad_config_points_into_the_file() {
    let Err(ConfigError::Invalid(diags)) = parse("[rules]\nDOJ999 = \"off\"\nSEC001 = \"loud\"\n")
    else {
        panic!("expected errors")
    };
    assert_eq!(diags.len(), 2);
    assert_eq!(diags[0].span, Span::new(8, 14));
    let Err(ConfigError::Invalid(diags)) = parse("[rules\n") else {
        panic!("expected errors")
    };
    assert_eq!(diags.len(), 1);
}

#[test]
fn every_mistake_of_a_config_is_reported_at_once_in_file_order() {
    let text = "bogus = 1\n[rules]\nDOJ003 = \"loud\"\n[lock]\nrequired = \"yes\"\n[discoveryy]\nexclude = []\n";
    let Err(ConfigError::Invalid(diags)) = parse(text) else {
        panic!("invalid");
    };
    let places: Vec<&str> = diags
        .iter()
        .map(|d| &text[d.span.start..d.span.end])
        .collect();
    assert_eq!(
        places,
        ["bogus", "\"loud\"", "\"yes\"", "discoveryy"],
        "{diags:#?}"
    );
    // A file that is not TOML has one error: nothing after it can be read.
    let Err(ConfigError::Invalid(diags)) = parse("[rules\nDOJ003 = \"loud\"\n") else {
        panic!("invalid");
    };
    assert_eq!(diags.len(), 1);
}
