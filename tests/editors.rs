//! The editor configurations of `editors/` are the ones docs/editors.md shows, name the
//! server command, and (for Neovim, when `nvim` 0.11+ is installed) work: a headless Neovim
//! with the configuration gets toolc's diagnostics for a broken file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{BASE_TOOL, Repo};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_docs_show_the_configuration_files_as_they_are() {
    let doc = read("docs/editors.md");
    for path in [
        "editors/neovim/toolc.lua",
        "editors/neovim/toolc-0.7.lua",
        "editors/helix/languages.toml",
    ] {
        assert!(
            doc.contains(&read(path)),
            "docs/editors.md does not show {path} as it is"
        );
    }
}

#[test]
fn every_configuration_starts_toolc_server() {
    let helix: toml::Table = toml::from_str(&read("editors/helix/languages.toml")).expect("TOML");
    let server = &helix["language-server"]["toolc"];
    assert_eq!(server["command"].as_str(), Some("toolc"));
    assert_eq!(server["args"][0].as_str(), Some("server"));

    let zed: toml::Table = toml::from_str(&read("editors/zed/extension.toml")).expect("TOML");
    assert!(zed["language_servers"].get("toolc").is_some());
    assert!(read("editors/zed/src/lib.rs").contains("\"server\""));

    let vscode: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/package.json")).expect("JSON");
    let main = vscode["main"].as_str().expect("main");
    let extension = read(&format!("editors/vscode/{main}"));
    assert!(extension.contains("args: [\"server\"]"), "{extension}");

    assert!(read("editors/neovim/toolc.lua").contains("{ \"toolc\", \"server\" }"));
    // Neovim 0.7 has no `vim.lsp.start` and no `vim.fs`: the 0.7 file uses neither.
    let old = read("editors/neovim/toolc-0.7.lua");
    assert!(old.contains("{ \"toolc\", \"server\" }"), "{old}");
    assert!(old.contains("vim.lsp.start_client(") && old.contains("vim.lsp.buf_attach_client("));
    assert!(
        !old.contains("vim.lsp.start(") && !old.contains("vim.fs."),
        "{old}"
    );
}

/// The Neovim to run: `TOOLC_NVIM`, else `nvim` on `PATH`, when it is 0.11 or later.
fn neovim() -> Option<PathBuf> {
    let nvim = std::env::var_os("TOOLC_NVIM").map_or_else(|| PathBuf::from("nvim"), PathBuf::from);
    let out = Command::new(&nvim).arg("--version").output().ok()?;
    let version = String::from_utf8_lossy(&out.stdout);
    let minor: u32 = version
        .lines()
        .next()?
        .strip_prefix("NVIM v0.")?
        .split('.')
        .next()?
        .parse()
        .ok()?;
    (minor >= 11).then_some(nvim)
}

#[test]
fn a_headless_neovim_with_the_configuration_shows_the_diagnostics() {
    let Some(nvim) = neovim() else {
        eprintln!("skipped: no Neovim 0.11+ (`nvim` on PATH or TOOLC_NVIM)");
        return;
    };
    let broken = BASE_TOOL.replace("type: \"retrieval\"", "type: \"retreival\"");
    let repo = Repo::with(&[("toolc.toml", ""), ("tools/search-docs.tool.md", &broken)]);
    let out = repo.root.join("diagnostics.txt");
    let script = repo.root.join("wait.lua");
    std::fs::write(
        &script,
        format!(
            r#"vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {{}}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format("%s %d:%d", d.code, d.lnum, d.col))
end
vim.fn.writefile(lines, {out:?})
vim.cmd("qa!")
"#
        ),
    )
    .expect("script");
    let bin = assert_cmd::cargo::cargo_bin("toolc");
    let bin_dir = bin.parent().unwrap_or(Path::new("."));
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    let status = Command::new(nvim)
        .current_dir(&repo.root)
        .env("PATH", path)
        .args(["--headless", "-i", "NONE", "-u"])
        .arg(root().join("editors/neovim/toolc.lua"))
        .arg("tools/search-docs.tool.md")
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .status()
        .expect("nvim runs");
    assert!(status.success());
    let found = std::fs::read_to_string(&out).expect("diagnostics written");
    let at = broken.find("\"retreival\"").expect("type");
    let line = broken[..at].matches('\n').count();
    let column = at - broken[..at].rfind('\n').map_or(0, |i| i + 1);
    assert_eq!(found.trim(), format!("TMD006 {line}:{column}"));
}
