//! Zed extension: runs `toolc server` (found on the PATH of the worktree's shell) as the
//! language server of Markdown, YAML and JSON files; it reports on the tool definitions
//! among them and ignores the rest.

use zed_extension_api as zed;

struct Toolc;

impl zed::Extension for Toolc {
    fn new() -> Self {
        Toolc
    }

    fn language_server_command(
        &mut self,
        _language_server_id: &zed::LanguageServerId,
        worktree: &zed::Worktree,
    ) -> zed::Result<zed::Command> {
        let command = worktree
            .which("toolc")
            .ok_or("`toolc` is not on PATH: install it (`cargo install --locked toolc`, or a release binary) and restart Zed")?;
        Ok(zed::Command {
            command,
            args: vec!["server".to_string()],
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Toolc);
