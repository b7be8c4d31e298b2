//! Unit tests of `tool_yaml.rs`.

use super::schema_files::bad_schema_path;
use super::*;
use crate::analysis::paths::sibling_display;

#[test]
fn kebab_and_schema_paths() {
    assert_eq!(NameKind::Tool.suggest("My Tool_Name"), "my-tool-name");
    assert_eq!(
        bad_schema_path("../x.json"),
        Some("climbs out of the tool folder with `..`")
    );
    assert_eq!(bad_schema_path("C:\\x.json"), Some("is an absolute path"));
    assert_eq!(bad_schema_path("schemas/input.json"), None);
    assert_eq!(
        sibling_display(".dojops/tools/a/tool.yaml", "./in.json"),
        ".dojops/tools/a/in.json"
    );
}
