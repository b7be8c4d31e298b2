//! The instructions and how they are introduced: `SKILL.md` length (SKL013), the body's
//! token budget (SKL014), and whether the description says what and when (SKL019).

use super::{Cx, rules};
use crate::source::Span;
use crate::syntax::markdown::lines_in;

/// The spec's limit on `SKILL.md`, in lines.
const MAX_LINES: usize = 500;
/// The spec's recommended budget for the instructions, in tokens.
const TOKEN_BUDGET: usize = 5_000;
/// "Far over" the budget: twice it.
const TOKEN_LIMIT: usize = 2 * TOKEN_BUDGET;

/// A rough token count: about four ASCII characters to a token, and a token per character
/// of other scripts (CJK text takes one or more each).
pub(super) fn estimated_tokens(text: &str) -> usize {
    let (ascii, other) = text.chars().fold((0usize, 0usize), |(a, o), c| {
        if c.is_ascii() { (a + 1, o) } else { (a, o + 1) }
    });
    ascii.div_ceil(4) + other
}

impl Cx<'_> {
    /// SKL013 and SKL014 on the body starting at `body_start`.
    pub(super) fn size(&mut self, body_start: usize) {
        let text = &self.file.text;
        let mut lines = lines_in(text, Span::new(self.file.bom_len, text.len()));
        let count = text[self.file.bom_len..].lines().count();
        if count > MAX_LINES
            && let Some((line, _)) = lines.nth(MAX_LINES)
        {
            let d = self
                .diag(
                    &rules::FILE_TOO_LONG,
                    line,
                    format!("`SKILL.md` has {count} lines; the spec recommends at most {MAX_LINES}"),
                )
                .label(format!("line {} and on", MAX_LINES + 1))
                .note("an agent loads the whole file when it activates the skill: every line costs context on every use")
                .help("move reference material into files under `references/` and link them from `SKILL.md`");
            self.push(d);
        }
        let body = text.get(body_start..).unwrap_or("");
        let tokens = estimated_tokens(body);
        if tokens > TOKEN_LIMIT {
            let first = lines_in(text, Span::new(body_start, text.len()))
                .find(|(_, l)| !l.trim().is_empty())
                .map_or(Span::point(body_start), |(s, _)| s);
            let d = self
                .diag(
                    &rules::BODY_OVER_BUDGET,
                    first,
                    format!("the instructions are about {tokens} tokens, far over the {TOKEN_BUDGET} the spec recommends"),
                )
                .label("the body starts here")
                .note("the whole body enters the agent's context when the skill is activated")
                .help("keep the steps in `SKILL.md` and move details into `references/` files the agent reads only when needed");
            self.push(d);
        }
    }

    /// SKL019: a description too short, or one that never says when to use the skill.
    pub(super) fn description_quality(&mut self, description: &str, span: Span) {
        let text = description.trim();
        let words = text.split_whitespace().count();
        let chars = text.chars().count();
        let message = if words < 5 && chars < 40 {
            "the description is too short to say what the skill does and when to use it"
        } else if mostly_ascii(text) && !says_when(text) {
            "the description does not say when to use the skill"
        } else {
            return;
        };
        let d = self
            .diag(&rules::VAGUE_DESCRIPTION, span, message)
            .label("vague description")
            .note("agents load only the name and description of every skill, and choose a skill by its description alone")
            .help("say what the skill does and when to use it, with the words a user would say: `Extracts text and tables from PDF files. Use when the user mentions PDFs or forms.`");
        self.push(d);
    }
}

/// True when most letters of `text` are ASCII (the "when" check knows English only).
fn mostly_ascii(text: &str) -> bool {
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    let ascii = text.chars().filter(|c| c.is_ascii_alphabetic()).count();
    letters > 0 && ascii * 5 >= letters * 4
}

/// True when an English description says when to use the skill.
fn says_when(text: &str) -> bool {
    const CUES: &[&str] = &[
        "when", "use ", "used ", "if ", "trigger", "invoke", "activate", "need", "asks", "whenever",
    ];
    let lower = text.to_lowercase();
    CUES.iter().any(|c| lower.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_estimates() {
        assert_eq!(estimated_tokens("abcd efgh"), 3);
        assert_eq!(estimated_tokens("比分"), 2);
    }

    #[test]
    fn descriptions() {
        assert!(says_when("Extract PDF text. Use when handling PDFs."));
        assert!(!says_when("Extracts text and tables from PDF files."));
        assert!(mostly_ascii("Helps with PDFs."));
        assert!(!mostly_ascii("桌面级NBA赛事追踪助手"));
    }
}
