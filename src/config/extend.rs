//! A configuration and the files it `extend`s: read up the chain, each at most once and
//! never outside the repository of the first, then laid one over the other.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Config, ConfigError, selectors};
use crate::diagnostics::Diagnostic;
use crate::rules::syntax::INVALID_CONFIG;
use crate::source::{FormatId, SourceFile, Span};

impl Config {
    /// Parse `file` and, when it says `extend = "…"`, the files it extends (read with `read`),
    /// each at most once and never outside the repository of `file`. The paths it writes
    /// (`[baseline] path`, `[build] out`) are relative to `writes` when given, else to the
    /// folder of the file that names them.
    pub(crate) fn load(
        file: Arc<SourceFile>,
        root: PathBuf,
        cwd: &Path,
        writes: Option<&Path>,
        read: &dyn Fn(&Path) -> std::io::Result<String>,
    ) -> Result<Config, ConfigError> {
        let repository = crate::fs::project::boundary(&root, cwd);
        let mut chain = vec![Config::parse_in(file, root, writes)?];
        while let Some((extend, span, written)) = chain.last().and_then(Config::extend_target) {
            let last = chain.last().and_then(|c| c.file.clone());
            let invalid = |message: String| match &last {
                Some(f) => {
                    ConfigError::Invalid(vec![Diagnostic::new(&INVALID_CONFIG, f, span, message)])
                }
                None => ConfigError::Io {
                    path: extend.clone(),
                    source: std::io::Error::other(message),
                },
            };
            // A URL joined to the folder would read as a missing file of an odd name. Not
            // repeated in the message: it may carry a token (`https://user:token@host/`).
            if is_url(written) {
                return Err(invalid(
                    "`extend` names a URL: toolc reads nothing from the network; name a file in the repository (a shared configuration is committed, or checked out beside it)".to_string(),
                ));
            }
            // The boundary of every configured path: never outside the repository, never in
            // `.git` (its `config` holds the remotes, which a snippet would print), never
            // through a link that leaves the repository or leads into `.git`.
            if let Err(refused) =
                crate::fs::Repository::of(&repository).configured(&extend, &repository)
            {
                return Err(invalid(format!(
                    "`extend` names `{}`, {refused}",
                    extend.display()
                )));
            }
            if chain
                .iter()
                .any(|c| c.file.as_ref().is_some_and(|f| f.path == extend))
            {
                return Err(invalid(format!(
                    "`extend` names `{}`, which already extends this file: the chain is a cycle",
                    extend.display()
                )));
            }
            let display = crate::fs::display_path(&extend, cwd);
            let text =
                read(&extend).map_err(|e| invalid(format!("cannot read `{display}`: {e}")))?;
            let folder = extend
                .parent()
                .map_or_else(|| repository.clone(), Path::to_path_buf);
            let parent = SourceFile::new(extend, display, FormatId::Config, text);
            chain.push(Config::parse_in(parent, folder, writes)?);
        }
        let unknown = selectors::still_unknown(&chain);
        if !unknown.is_empty() {
            return Err(ConfigError::Invalid(unknown));
        }
        let extends = chain
            .iter()
            .skip(1)
            .filter_map(|c| Some(c.file.as_ref()?.path.clone()))
            .collect();
        let mut config = chain.pop().unwrap_or_default();
        while let Some(child) = chain.pop() {
            config = config.extended_by(child);
        }
        config.extends = extends;
        Ok(config)
    }

    /// The absolute path `extend` names, the span of its value, and the value as written.
    fn extend_target(&self) -> Option<(PathBuf, Span, &str)> {
        let (value, span) = self.extend.as_ref()?;
        Some((
            crate::fs::normalize(&self.root.join(value)),
            *span,
            value.as_str(),
        ))
    }

    /// `self` with `child`'s settings on top: the child's rules and overrides win, includes
    /// add up, the child's `[build] targets` replace the parent's.
    fn extended_by(mut self, child: Config) -> Config {
        self.rules.extend(child.rules);
        self.overrides.extend(child.overrides);
        self.includes.extend(child.includes);
        self.excludes.extend(child.excludes);
        Config {
            file: child.file,
            root: child.root,
            rules: self.rules,
            overrides: self.overrides,
            includes: self.includes,
            excludes: self.excludes,
            named_by_content: child.named_by_content,
            build_targets: child.build_targets.or(self.build_targets),
            baseline: child.baseline.or(self.baseline),
            build_out: child.build_out.or(self.build_out),
            lock_required: child.lock_required || self.lock_required,
            explicit: child.explicit,
            home: child.home,
            extend: None,
            preview: child.preview.or(self.preview),
            runtimes: self.runtimes.extended_by(child.runtimes),
            custom: self.custom.extended_by(child.custom),
            pending_selectors: Vec::new(),
            extends: Vec::new(),
        }
    }
}

/// True when `value` starts with a URL scheme (`https://`, `git+ssh://`): a letter, then
/// letters, digits, `+`, `-` or `.`, at least two in all (`C://` is a Windows drive).
fn is_url(value: &str) -> bool {
    value.split_once("://").is_some_and(|(scheme, _)| {
        scheme.len() >= 2
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn urls_are_told_from_paths() {
        for url in [
            "https://example.com/toolc.toml",
            "git+ssh://host/x",
            "s3://b/k",
        ] {
            assert!(super::is_url(url), "{url}");
        }
        for path in [
            "../toolc.toml",
            "C://toolc.toml",
            "a://b.toml",
            "./x:y.toml",
            "1x://y",
        ] {
            assert!(!super::is_url(path), "{path}");
        }
    }
}
