//! Unit tests of the ShellCheck pass.

use super::*;

#[test]
fn positions_are_lines_and_characters() {
    let script = "echo é $x\n\tls $y\n";
    assert_eq!(offset(script, 1, 8), script.find('$').unwrap_or(0));
    assert_eq!(offset(script, 2, 5), script.rfind('$').unwrap_or(0));
    assert_eq!(offset(script, 9, 1), script.len());
    assert_eq!(offset(script, 1, 99), "echo é $x".len());
}

#[test]
fn templates_become_variables_of_the_same_length() {
    let script = "gh pr view {PR} --repo ${REPO} -q '{RAW:Q}' && echo {a b}";
    assert_eq!(
        as_variables(script),
        "gh pr view $_PR --repo ${REPO} -q '$_RAW_Q' && echo {a b}"
    );
    assert_eq!(as_variables(script).len(), script.len());
    assert_eq!(templates("x{1}"), Vec::<std::ops::Range<usize>>::new());
}

#[test]
fn private_dirs_are_new_and_removed() {
    let dir = run::private_dir().expect("temp dir");
    let path = dir.0.clone();
    assert!(path.is_dir());
    drop(dir);
    assert!(!path.exists());
}
