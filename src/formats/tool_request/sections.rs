//! The body's `##` sections: which the backend reads, in which order (TRQ007–TRQ010), and
//! what each one holds, handed to the check of that section.

use super::{Backend, BodyFacts, Cx, Meta, rules};
use crate::analysis::names::did_you_mean;
use crate::diagnostics::{DidYouMean, Fix};
use crate::source::Span;
use crate::syntax::markdown::{Blocks, near_heading};
use crate::syntax::sections::Section;

impl Cx<'_> {
    /// The sections the backend wants, each checked; TRQ007–TRQ010 on the set.
    pub(super) fn sections(
        &mut self,
        blocks: &Blocks,
        meta: &Meta,
        closing: Span,
        body_start: usize,
    ) {
        let backend = meta.backend;
        let expected = backend.sections();
        let text = self.text();
        let mut found: Vec<Option<Section>> = vec![None; expected.len()];
        let mut near: Vec<Option<Span>> = vec![None; expected.len()];
        let mut furthest: Option<(usize, Section)> = None;
        for s in blocks.sections(text, 2) {
            let Some(i) = expected.iter().position(|(t, _)| *t == s.title) else {
                continue;
            };
            if let Some(first) = found[i] {
                let d = self
                    .diag(
                        &rules::DUPLICATE_SECTION,
                        s.heading,
                        format!("`## {}` appears twice", s.title),
                    )
                    .label("second section with this title")
                    .related(self.file, first.heading, "first one here")
                    .help("merge the two sections into one");
                self.push(d);
                continue;
            }
            found[i] = Some(s);
            match furthest {
                Some((j, later)) if j > i => {
                    let d = self
                        .diag(
                            &rules::MISORDERED_SECTION,
                            s.heading,
                            format!("`## {}` must come before `## {}`", s.title, later.title),
                        )
                        .label("out of order")
                        .related(
                            self.file,
                            later.heading,
                            "this section comes later in the spec's order",
                        )
                        .help(format!("order the sections: {}", order_list(expected)));
                    self.push(d);
                }
                _ => furthest = Some((i, s)),
            }
        }
        // Judged once every wanted section is known, so a near miss of a section that does
        // exist is reported rather than taken for it: the sections are read again, rather
        // than each kept (a body of millions of headings).
        let strays = blocks
            .sections(text, 2)
            .filter(|s| !expected.iter().any(|(t, _)| *t == s.title));
        for s in strays {
            self.stray_section(&s, backend, &found, &mut near);
        }
        for (i, (title, required)) in expected.iter().enumerate() {
            if found[i].is_some() || !required {
                continue;
            }
            let near = near[i].or_else(|| near_heading(self.text(), body_start, title));
            let d = match near {
                Some(span) => self
                    .diag(
                        &rules::MISSING_SECTION,
                        span,
                        format!("the body has no `## {title}` section"),
                    )
                    .label(format!("not read as `## {title}`"))
                    .help(format!("write the heading exactly `## {title}`")),
                None => self
                    .diag(
                        &rules::MISSING_SECTION,
                        closing,
                        format!("the body has no `## {title}` section"),
                    )
                    .label(format!("no `## {title}` after the front matter"))
                    .help(format!(
                        "add `## {title}`: a request to the {} backend needs {}",
                        backend.as_str(),
                        order_list(expected)
                    )),
            };
            self.push(d);
        }
        let mut body = BodyFacts::default();
        for (i, (title, _)) in expected.iter().enumerate() {
            let Some(s) = &found[i] else { continue };
            if self
                .text()
                .get(s.content.start..s.content.end)
                .is_none_or(|c| c.trim().is_empty())
            {
                if *title == "Inputs (JSON)" {
                    let d = self
                        .diag(
                            &rules::INVALID_INPUTS_JSON,
                            s.heading,
                            "the `## Inputs (JSON)` section holds no JSON",
                        )
                        .label("empty section")
                        .help("write the inputs as a JSON object, or remove the section");
                    self.push(d);
                } else {
                    let hint = if *title == "Input Files" {
                        "list each input with its `/in/...` location and sha256 hash, or write `None`"
                    } else {
                        "fill it in as the spec describes"
                    };
                    let d = self
                        .diag(
                            &rules::MISSING_SECTION,
                            s.heading,
                            format!("the `## {title}` section is empty"),
                        )
                        .label("nothing under this heading")
                        .help(hint);
                    self.push(d);
                }
                continue;
            }
            match *title {
                "Command" => {
                    body.program = Some(s.content);
                    self.command(s);
                }
                "Code" => body.program = Some(s.content),
                "Inputs (JSON)" => {
                    body.program_data = Some(s.content);
                    self.inputs_json(s);
                }
                "Input Files" => body.inputs = Some(self.input_files(s)),
                "Output Expectations" => self.outputs(s),
                "Risk Assessment" => self.risk(s, meta),
                _ => {}
            }
        }
        self.inputs_agree(meta, &body);
    }

    /// A `##` section the backend does not read: a near miss of a wanted title (kept in
    /// `near` when that title is missing, so TRQ007 can point at it), a section of the other
    /// backend, or something else (TRQ010).
    pub(super) fn stray_section(
        &mut self,
        s: &Section,
        backend: Backend,
        found: &[Option<Section>],
        near: &mut [Option<Span>],
    ) {
        let expected = backend.sections();
        let other = backend.other();
        let of_other = other.sections().iter().any(|(t, _)| *t == s.title);
        let close = (!of_other)
            .then(|| {
                expected.iter().position(|(t, _)| {
                    t.eq_ignore_ascii_case(s.title) || did_you_mean(s.title, [*t]).is_some()
                })
            })
            .flatten();
        let d = match close {
            Some(i) if expected[i].1 && found[i].is_none() && near[i].is_none() => {
                near[i] = Some(s.heading);
                return;
            }
            Some(i) => {
                let title = expected[i].0;
                // Renamed next to the section it means, it would be that section twice.
                let hint = found[i].is_none().then(|| {
                    let heading = format!("## {title}");
                    let fix = Fix::unsafe_(s.heading, &heading);
                    DidYouMean::new(heading, fix)
                });
                self.diag(
                    &rules::UNEXPECTED_SECTION,
                    s.heading,
                    format!(
                        "`## {}` is not a section of {} requests",
                        s.title,
                        backend.as_str()
                    ),
                )
                .label(format!("not read as `## {title}`"))
                .note("the executor ignores it, and a reviewer may take it for part of what runs")
                .did_you_mean_or(
                    hint,
                    format!(
                        "the request already has `## {title}`: move this into it, or remove it"
                    ),
                )
            }
            None if of_other => self
                .diag(
                    &rules::UNEXPECTED_SECTION,
                    s.heading,
                    format!(
                        "`## {}` is a section of {} requests, but this request's backend is `{}`",
                        s.title,
                        other.as_str(),
                        backend.as_str()
                    ),
                )
                .label(format!("not read by the {} backend", backend.as_str()))
                .note("the executor ignores it: what it says does not run")
                .help(format!(
                    "set `backend: {}` if this is a {} request, or remove the section",
                    other.as_str(),
                    other.as_str()
                )),
            None => self
                .diag(
                    &rules::UNEXPECTED_SECTION,
                    s.heading,
                    format!(
                        "`## {}` is not a section of {} requests",
                        s.title,
                        backend.as_str()
                    ),
                )
                .label("unknown section")
                .note("the executor ignores it, and a reviewer may take it for part of what runs")
                .help(format!(
                    "the sections are {}; use `###` for sub-headings",
                    order_list(expected)
                )),
        };
        self.push(d);
    }
}

/// The spec's sections, in order, for a help line.
fn order_list(expected: &[(&str, bool)]) -> String {
    expected
        .iter()
        .map(|(t, required)| {
            if *required {
                format!("`## {t}`")
            } else {
                format!("`## {t}` (optional)")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}
