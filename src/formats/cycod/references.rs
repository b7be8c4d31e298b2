//! `{NAME}` and `{step.property}` references checked against the tool's parameters and
//! steps (CYC012, CYC014, CYC015, CYC016, SEC020).

use super::lower::{Cx, Field, Param, StepNames};
use super::template::{self, STEP_PROPERTIES, Target};
use crate::analysis::names::{NameIndex, SUGGESTION_BUDGET, did_you_mean, did_you_mean_within};
use crate::diagnostics::{Applicability, DidYouMean};
use crate::formats::fields::replace_text;
use crate::formats::in_value::InValue;
use crate::rules::cycod as rules;
use crate::rules::security;
use crate::source::Span;

/// What a tool's references are checked against.
struct Targets<'x, 'n> {
    params: &'x mut [Param<'n>],
    /// The parameters' names, looked up (a tool may have a million parameters and as many
    /// references).
    names: NameIndex<'n>,
    steps: &'x StepNames,
    /// Name comparisons "did you mean" may still spend on references to missing names.
    budget: usize,
}

impl Cx<'_> {
    /// CYC012-CYC016 and SEC020 over every scanned value; marks parameters used.
    pub(super) fn references(
        &mut self,
        fields: &[Field<'_>],
        params: &mut [Param<'_>],
        steps: &StepNames,
    ) {
        let names = NameIndex::new(params.iter().map(|p| p.name).collect());
        let mut targets = Targets {
            params,
            names,
            steps,
            budget: SUGGESTION_BUDGET,
        };
        for field in fields {
            let Some(value) = field.node.as_str() else {
                continue;
            };
            let mut spans = InValue::new(self.file(), &field.node);
            for r in template::scan(value) {
                let span = spans.span(r.at, r.text);
                match r.target {
                    Target::Param { name, raw } => {
                        self.param_reference(name, raw, r.text, span, &mut targets)
                    }
                    Target::Step { step, property } => {
                        let at = (span, field.step);
                        self.step_reference(step, property, r.text, at, &mut targets)
                    }
                }
            }
        }
    }

    fn param_reference(
        &mut self,
        name: &str,
        raw: bool,
        text: &str,
        span: Span,
        targets: &mut Targets<'_, '_>,
    ) {
        let found = targets.names.first(name);
        if let Some(p) = found.and_then(|i| targets.params.get_mut(i)) {
            p.used = true;
            if raw {
                let d = self
                    .diag(
                        &security::RAW_PARAMETER_REFERENCE,
                        span,
                        format!("`{text}` inserts `{name}` into the command without escaping"),
                    )
                    .label("not escaped")
                    .note("the value comes from the LLM or the caller: quotes, `;` or `$(…)` in it run as shell code")
                    .help(format!("write `{{{name}}}` so cycod escapes the value"))
                    // Unsafe: the command then receives the value quoted, which can change
                    // what it does with it.
                    .maybe_fix(replace_text(
                        self.file(),
                        span,
                        text,
                        &format!("{{{name}}}"),
                        Applicability::Unsafe,
                    ));
                self.push(d);
            }
            return;
        }
        let names = targets.names.names();
        let suggestion = did_you_mean_within(
            &mut targets.budget,
            name,
            names.len(),
            names.iter().copied(),
        )
        .filter(|s| !is_compound_of(name, s));
        let is_step = targets.steps.first(name).is_some();
        // Lowercase names with no close parameter are most likely jq shorthands (`{name}`)
        // or Python f-string fields, which cycod leaves alone.
        let looks_like_parameter = raw || !name.bytes().any(|b| b.is_ascii_lowercase());
        if !(looks_like_parameter || suggestion.is_some() || is_step) {
            return;
        }
        if self.lw.diags.counted(&rules::UNKNOWN_PARAMETER_REFERENCE) {
            return;
        }
        let mut d = self
            .diag(
                &rules::UNKNOWN_PARAMETER_REFERENCE,
                span,
                format!("`{text}` is not a parameter of this tool"),
            )
            .label("unknown parameter")
            .note("cycod substitutes only declared parameters: the braces reach the command as they are");
        if let Some(s) = suggestion {
            let declared = targets.names.first(s).and_then(|i| targets.params.get(i));
            if let Some(p) = declared {
                d = d.related(self.file(), p.key_span, format!("did you mean `{s}`?"));
            }
            let fixed = format!("{{{}{s}}}", if raw { "RAW:" } else { "" });
            let fix = replace_text(self.file(), span, text, &fixed, Applicability::Unsafe);
            // Without the edit (a spelling the source does not hold as is), no hint.
            d = d.maybe_did_you_mean(DidYouMean::fixed_by(&fixed, fix));
        } else if is_step {
            d = d.help(format!(
                "to use the step's output write `{{{name}.output}}`"
            ));
        } else {
            d = d.help(format!(
                "declare it under `parameters:` (`{name}: {{type: string, description: …}}`)"
            ));
        }
        self.push(d);
    }

    fn step_reference(
        &mut self,
        step: &str,
        property: &str,
        text: &str,
        (span, at): (Span, Option<usize>),
        targets: &mut Targets<'_, '_>,
    ) {
        let steps = targets.steps;
        let known_property = STEP_PROPERTIES.contains(&property);
        let Some(index) = steps.first(step) else {
            // Compared with every step: within a budget a tool, so that many references to
            // missing steps stay linear.
            let names = steps.list.iter().map(|s| s.name.as_str());
            let suggestion =
                did_you_mean_within(&mut targets.budget, step, steps.list.len(), names);
            if !known_property && suggestion.is_none() {
                // `{obj.attr}` in a Python f-string, say: not cycod's.
                return;
            }
            if self.lw.diags.counted(&rules::UNKNOWN_STEP_REFERENCE) {
                return;
            }
            let mut d = self
                .diag(
                    &rules::UNKNOWN_STEP_REFERENCE,
                    span,
                    format!("`{text}` refers to a step `{step}` this tool does not have"),
                )
                .label("unknown step")
                .note("cycod only fills in outputs of the tool's own steps: the braces reach the command as they are");
            if let Some(s) = suggestion {
                if let Some(target) = steps.first(s).and_then(|i| steps.list.get(i)) {
                    d = d.related(self.file(), target.span, format!("did you mean `{s}`?"));
                }
                let fixed = format!("{{{s}.{property}}}");
                let fix = replace_text(self.file(), span, text, &fixed, Applicability::Unsafe);
                // Without the edit (a spelling the source does not hold as is), no hint.
                d = d.maybe_did_you_mean(DidYouMean::fixed_by(&fixed, fix));
            } else if steps.list.is_empty() {
                d = d.help("this tool has no `steps`; step outputs exist only in multi-step tools");
            } else {
                d = d.help(format!("the steps are: {}", step_list(steps)));
            }
            self.push(d);
            return;
        };
        if !known_property {
            let hint = did_you_mean(property, STEP_PROPERTIES.iter().copied());
            let d = self
                .diag(
                    &rules::UNKNOWN_STEP_PROPERTY,
                    span,
                    format!("`{text}` reads `{property}`, which a step does not have"),
                )
                .label("unknown property")
                .note("a step has `output`, `stdout`, `stderr` and `exit-code`; anything else is left in the command as written")
                .did_you_mean_or(
                    hint.and_then(|h| {
                        let fixed = format!("{{{step}.{h}}}");
                        let fix = replace_text(self.file(), span, text, &fixed, Applicability::Safe);
                        DidYouMean::fixed_by(fixed, fix)
                    }),
                    format!("use `{{{step}.output}}`, `.stdout`, `.stderr` or `.exit-code`"),
                );
            self.push(d);
            return;
        }
        let Some(current) = at else { return };
        if index < current {
            return;
        }
        let message = if index == current {
            format!("step `{step}` reads its own output with `{text}`")
        } else {
            format!("`{text}` reads the output of step `{step}`, which runs later")
        };
        let d = self
            .diag(&rules::FORWARD_STEP_REFERENCE, span, message)
            .label("not run yet")
            .related(
                self.file(),
                steps.list.get(index).map_or(span, |s| s.span),
                "that step is defined here",
            )
            .note("steps run in order: when this one runs, that output does not exist yet")
            .help("move the step that produces the output above this one");
        self.push(d);
    }
}

/// Steps named in a help, at most.
const LISTED: usize = 50;

/// The steps' distinct names in step order, the first [`LISTED`] of them and how many more.
fn step_list(steps: &StepNames) -> String {
    let mut list: Vec<&str> = Vec::new();
    for s in &steps.list {
        if list.len() == LISTED {
            break;
        }
        if steps
            .first(&s.name)
            .and_then(|i| steps.list.get(i))
            .is_some_and(|f| std::ptr::eq(f, s))
        {
            list.push(&s.name);
        }
    }
    let more = steps.distinct().saturating_sub(list.len());
    match more {
        0 => list.join(", "),
        n => format!("{}, and {n} more", list.join(", ")),
    }
}

/// True when one name is the other plus a `_`/`-` suffix (`REPO_DIR` and `REPO`): a
/// different name, not a misspelling.
fn is_compound_of(a: &str, b: &str) -> bool {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    long.strip_prefix(short)
        .is_some_and(|rest| rest.starts_with(['_', '-']))
}
