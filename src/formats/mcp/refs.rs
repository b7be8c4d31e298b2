//! MCP012 in client configurations: `${…}` references the client leaves unexpanded, so the
//! server receives the text as written. Each client has its own syntax: Claude Code expands
//! `${VAR}` and `${VAR:-default}` from the environment; VS Code and Cursor expand editor
//! variables (`${env:VAR}`, `${workspaceFolder}`) and VS Code `${input:id}` from `inputs`.

use super::templates::{Reference, dollar_references};
use crate::analysis::names::did_you_mean;
use crate::analysis::registry;
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::{Lowerer, replace_text};
use crate::formats::in_value::InValue;
use crate::rules::mcp as rules;
use crate::runtimes::mcp_clients::{Client, Expansion};
use crate::source::Span;
use crate::syntax::Node;

/// An entry of `inputs`, and whether some server references it.
#[derive(Debug)]
pub(super) struct Input {
    /// Its `id`.
    pub id: String,
    /// Where the `id` value is written.
    pub span: Span,
    /// Whether a `${input:id}` names it.
    pub used: bool,
}

/// Comparisons "did you mean" may spend on the inputs of one file: thousands of misspelt
/// references to thousands of inputs stay linear.
const SUGGEST_BUDGET: usize = 100_000;

/// The entries of `inputs`, found by id.
#[derive(Debug)]
pub(super) struct Inputs {
    /// In the order written, no id twice.
    pub list: Vec<Input>,
    /// Places in `list`, in the order of their ids: a table of ids took more memory than
    /// the list.
    by_id: Vec<usize>,
    /// Comparisons left for "did you mean".
    budget: usize,
}

/// An input whose id an earlier one has, and where the earlier one's is written.
pub(super) struct Repeat {
    /// The later input.
    pub again: Input,
    /// The first one's `id`.
    pub first: Span,
}

impl Inputs {
    /// No inputs.
    pub(super) fn new() -> Inputs {
        Inputs::written(Vec::new()).0
    }

    /// The inputs `written`, in order: the first of each id, and the later ones apart.
    pub(super) fn written(mut list: Vec<Input>) -> (Inputs, Vec<Repeat>) {
        let mut keep = vec![true; list.len()];
        let repeats = registry::duplicates(list.iter().map(|i| Some(((), i.id.as_str()))))
            .into_iter()
            .map(|d| {
                keep[d.again] = false;
                Repeat {
                    again: Input {
                        id: list[d.again].id.clone(),
                        span: list[d.again].span,
                        used: false,
                    },
                    first: list[d.first].span,
                }
            })
            .collect();
        let mut at = 0;
        list.retain(|_| {
            at += 1;
            keep[at - 1]
        });
        // The places in the list without its repeats.
        let mut by_id: Vec<usize> = (0..list.len()).collect();
        by_id.sort_by(|&a, &b| list[a].id.cmp(&list[b].id));
        let inputs = Inputs {
            list,
            by_id,
            budget: SUGGEST_BUDGET,
        };
        (inputs, repeats)
    }

    /// The place in `list` of the input of id `id`.
    fn find(&self, id: &str) -> Option<usize> {
        let at = self
            .by_id
            .binary_search_by(|&i| self.list[i].id.as_str().cmp(id))
            .ok()?;
        self.by_id.get(at).copied()
    }

    /// The input of id `id`.
    #[cfg(test)]
    fn get(&self, id: &str) -> Option<&Input> {
        self.find(id).and_then(|i| self.list.get(i))
    }

    /// Mark the input of id `id` used; false when there is none.
    fn mark_used(&mut self, id: &str) -> bool {
        let found = self.find(id).and_then(|i| self.list.get_mut(i));
        found.map(|input| input.used = true).is_some()
    }

    /// The id closest to `id`, while the budget lasts.
    fn suggest(&mut self, id: &str) -> Option<String> {
        self.budget = self.budget.checked_sub(self.list.len())?;
        did_you_mean(id, self.list.iter().map(|i| i.id.as_str())).map(str::to_string)
    }
}

/// Editor variables with a prefix and an argument (`${env:HOME}`), per VS Code.
const VS_CODE_PREFIXES: &[&str] = &["env", "config", "command", "input", "workspaceFolder"];

/// Check the references in the string `node` (`text` is its value).
pub(super) fn check(
    lw: &mut Lowerer<'_>,
    client: Client,
    node: &Node,
    text: &str,
    inputs: &mut Inputs,
) {
    let mut spans = InValue::new(lw.file, node);
    for r in dollar_references(text) {
        let problem = match client.expansion() {
            Expansion::Unchecked => None,
            Expansion::Shell => shell(&r),
            Expansion::Editor {
                inputs: has_inputs,
                predefined,
            } => editor(client, &r, has_inputs, predefined, inputs),
        };
        let Some(problem) = problem else { continue };
        let span = spans.span(r.start, r.text(text));
        let fix = problem
            .replacement
            .as_deref()
            .and_then(|new| replace_text(lw.file, span, r.text(text), new, Applicability::Safe));
        let d = lw
            .diag(&rules::UNDEFINED_VARIABLE, span, problem.message)
            .label(problem.label)
            .note(format!(
                "{} leaves a reference it does not expand in the text: the server receives `{}` as written",
                client.name(),
                r.text(text)
            ))
            ;
        let d = match (problem.meant, problem.replacement, fix) {
            (true, Some(meant), Some(fix)) => d.did_you_mean(DidYouMean::new(meant, fix)),
            (_, _, fix) => d.help(problem.help).maybe_fix(fix),
        };
        lw.push(d);
    }
}

/// What is wrong with one reference.
struct Problem {
    message: String,
    label: &'static str,
    help: String,
    /// The reference written so that the client expands it.
    replacement: Option<String>,
    /// The replacement is a guess at what was meant: a did-you-mean (with `help` for when it
    /// cannot be written in place).
    meant: bool,
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
fn is_env_name(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Claude Code: `${VAR}` or `${VAR:-default}`.
fn shell(r: &Reference<'_>) -> Option<Problem> {
    let name = r.body.split_once(":-").map_or(r.body, |(n, _)| n);
    if is_env_name(name) {
        return None;
    }
    if let Some(var) = r.body.strip_prefix("env:").filter(|v| is_env_name(v)) {
        return Some(Problem {
            message: format!("Claude Code does not expand `${{env:{var}}}`: it reads `${{{var}}}`"),
            label: "editor syntax",
            help: format!("write `${{{var}}}`"),
            replacement: Some(format!("${{{var}}}")),
            meant: false,
        });
    }
    if let Some(id) = r.body.strip_prefix("input:") {
        return Some(Problem {
            message: format!("Claude Code has no `inputs`: `${{input:{id}}}` is VS Code syntax"),
            label: "VS Code syntax",
            help: "read the value from an environment variable: `${NAME}`, set before Claude Code starts".into(),
            replacement: None,
            meant: false,
        });
    }
    Some(Problem {
        message: format!(
            "`${{{}}}` is not an environment variable reference Claude Code expands",
            r.body
        ),
        label: "not `${NAME}` or `${NAME:-default}`",
        help: "write `${NAME}` or `${NAME:-default}`, with NAME made of letters, digits and `_`"
            .into(),
        replacement: None,
        meant: false,
    })
}

/// VS Code and Cursor: editor variables, and VS Code's `${input:id}`.
fn editor(
    client: Client,
    r: &Reference<'_>,
    has_inputs: bool,
    predefined: &[&str],
    inputs: &mut Inputs,
) -> Option<Problem> {
    let who = client.name();
    if predefined.contains(&r.body) {
        return None;
    }
    if let Some((prefix, arg)) = r.body.split_once(':') {
        match prefix {
            "input" if has_inputs => return input(arg, inputs),
            "input" => {
                return Some(Problem {
                    message: format!("{who} has no `inputs`: `${{input:{arg}}}` is VS Code syntax"),
                    label: "VS Code syntax",
                    help: "read the value from the environment with `${env:NAME}`".into(),
                    replacement: None,
                    meant: false,
                });
            }
            "env" if arg.is_empty() => {
                return Some(Problem {
                    message: "`${env:}` names no environment variable".into(),
                    label: "empty name",
                    help: "write `${env:NAME}`".into(),
                    replacement: None,
                    meant: false,
                });
            }
            "env" => return None,
            _ if has_inputs && VS_CODE_PREFIXES.contains(&prefix) => return None,
            _ => {}
        }
    }
    if is_env_name(r.body) || r.body.split_once(":-").is_some_and(|(n, _)| is_env_name(n)) {
        let name = r.body.split_once(":-").map_or(r.body, |(n, _)| n);
        let replacement = (name == r.body).then(|| format!("${{env:{name}}}"));
        let close = did_you_mean(r.body, predefined.iter().copied());
        if let Some(p) = close {
            return Some(Problem {
                message: format!("`${{{}}}` is not a variable {who} knows", r.body),
                label: "unknown variable",
                help: format!("write `${{env:{name}}}` for the environment variable"),
                replacement: Some(format!("${{{p}}}")),
                meant: true,
            });
        }
        return Some(Problem {
            message: format!(
                "{who} does not expand `${{{}}}`: environment variables are written `${{env:{name}}}`",
                r.body
            ),
            label: "not expanded",
            help: format!("write `${{env:{name}}}`"),
            replacement,
            meant: false,
        });
    }
    let close = did_you_mean(r.body, predefined.iter().copied());
    Some(Problem {
        message: format!("`${{{}}}` is not a variable {who} knows", r.body),
        label: "unknown variable",
        help: format!(
            "use `${{env:NAME}}`{} or one of {}",
            if has_inputs { ", `${input:id}`" } else { "" },
            predefined
                .iter()
                .take(4)
                .map(|p| format!("`${{{p}}}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        replacement: close.map(|p| format!("${{{p}}}")),
        meant: close.is_some(),
    })
}

/// `${input:id}`: `id` must be an entry of `inputs`.
fn input(id: &str, inputs: &mut Inputs) -> Option<Problem> {
    if inputs.mark_used(id) {
        return None;
    }
    let close = inputs.suggest(id);
    if let Some(c) = &close {
        // The misspelt reference still means that input: it is not unused.
        inputs.mark_used(c);
    }
    Some(Problem {
        message: format!("`${{input:{id}}}` names no entry of `inputs`"),
        label: "undefined input",
        help: format!(
            "add `{{\"type\": \"promptString\", \"id\": \"{id}\", \"description\": \"...\"}}` to `inputs`"
        ),
        meant: close.is_some(),
        replacement: close.map(|c| format!("${{input:{c}}}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(body: &str) -> Reference<'_> {
        Reference {
            start: 0,
            end: 0,
            body,
        }
    }

    #[test]
    fn claude_code_reads_shell_references_only() {
        assert!(shell(&r("API_KEY")).is_none());
        assert!(shell(&r("API_KEY:-none")).is_none());
        assert_eq!(
            shell(&r("env:API_KEY")).and_then(|p| p.replacement),
            Some("${API_KEY}".into())
        );
        assert!(shell(&r("input:key")).is_some());
        assert!(shell(&r("1BAD")).is_some());
    }

    #[test]
    fn repeated_ids_are_found_by_sorting() {
        let input = |id: &str, at: usize| Input {
            id: id.into(),
            span: Span::new(at, at + 1),
            used: false,
        };
        let written = vec![input("b", 0), input("a", 1), input("b", 2), input("b", 3)];
        let (inputs, repeats) = Inputs::written(written);
        let ids: Vec<&str> = inputs.list.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["b", "a"]);
        let places: Vec<(usize, usize)> = repeats
            .iter()
            .map(|r| (r.again.span.start, r.first.start))
            .collect();
        assert_eq!(places, [(2, 0), (3, 0)]);
        assert!(inputs.get("a").is_some_and(|i| i.span.start == 1));
        assert!(inputs.get("c").is_none());
    }

    #[test]
    fn vs_code_reads_inputs_and_editor_variables() {
        let (mut inputs, _) = Inputs::written(vec![Input {
            id: "api-key".into(),
            span: Span::default(),
            used: false,
        }]);
        let vs = |body: &str, inputs: &mut Inputs| {
            let Expansion::Editor { predefined, .. } = Client::VsCode.expansion() else {
                unreachable!()
            };
            editor(Client::VsCode, &r(body), true, predefined, inputs)
        };
        assert!(vs("input:api-key", &mut inputs).is_none());
        assert!(inputs.get("api-key").is_some_and(|i| i.used));
        assert!(vs("workspaceFolder", &mut inputs).is_none());
        assert!(vs("env:HOME", &mut inputs).is_none());
        assert_eq!(
            vs("input:api-kye", &mut inputs).and_then(|p| p.replacement),
            Some("${input:api-key}".into())
        );
        assert_eq!(
            vs("GITHUB_TOKEN", &mut inputs).and_then(|p| p.replacement),
            Some("${env:GITHUB_TOKEN}".into())
        );
        assert!(vs("env:", &mut inputs).is_some());
        assert_eq!(
            vs("workspacefolder", &mut inputs).and_then(|p| p.replacement),
            Some("${workspaceFolder}".into())
        );
    }
}
