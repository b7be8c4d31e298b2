//! SKL010: front matter that YAML allows but the reference validator does not read as
//! written. It checks that the file starts with `---`, takes the front matter up to the
//! first `---` anywhere after it, and reads it with a strict YAML subset that refuses flow
//! collections, anchors, aliases, tags and tabs between tokens.

use super::{Cx, rules};
use crate::diagnostics::cap::MAX_PER_RULE;
use crate::diagnostics::{Applicability, Fix};
use crate::memory::Least;
use crate::source::Span;
use crate::syntax::front_matter::FrontMatter;
use crate::syntax::{Node, NodeKind};

/// The constructs found, each where it is, the first by place kept.
type Found = Least<(Construct, Span), Span>;

/// What the reference validator does with such front matter.
const REFUSED: &str = "the reference validator (`skills-ref validate`) refuses this front matter, and so may agents whose YAML reader is as strict";

/// One construct the strict reader refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Construct {
    Flow,
    Alias,
    Anchor,
    Tag,
    Tab,
}

impl Construct {
    fn message(self) -> &'static str {
        match self {
            Construct::Flow => "a flow collection (`[…]` or `{…}`) in the front matter",
            Construct::Alias => "an alias (`*name`) in the front matter",
            Construct::Anchor => "an anchor (`&name`) in the front matter",
            Construct::Tag => "a tag (`!…`) in the front matter",
            Construct::Tab => "a tab between YAML tokens in the front matter",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Construct::Flow => "flow style",
            Construct::Alias => "alias",
            Construct::Anchor => "anchor",
            Construct::Tag => "tag",
            Construct::Tab => "tab",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Construct::Flow => {
                "write a list one `- item` per line and a mapping one `key: value` per line (`allowed-tools` is one space-separated string)"
            }
            Construct::Alias | Construct::Anchor => "write the value out in full where it is used",
            Construct::Tag => "drop the tag: every value of a skill's front matter is text",
            Construct::Tab => "use spaces, or quote the value if the tab belongs to it",
        }
    }
}

impl Cx<'_> {
    /// A byte-order mark before the opening `---`.
    pub(super) fn byte_order_mark(&mut self) {
        if self.file.bom_len == 0 {
            return;
        }
        let span = Span::new(0, self.file.bom_len);
        let d = self
            .diag(
                &rules::UNPORTABLE_FRONT_MATTER,
                span,
                "the file starts with a byte-order mark, so it does not start with `---`",
            )
            .label("byte-order mark")
            .note(REFUSED)
            .help("save the file as UTF-8 without a byte-order mark")
            .fix(
                Fix::replace(Applicability::Safe, span, "")
                    .with_message("remove the byte-order mark"),
            );
        self.push(d);
    }

    /// `---` before the closing fence: the reference validator's front matter ends there.
    pub(super) fn cut_short(&mut self, fm: &FrontMatter) {
        let from = fm.open.start + 3;
        let Some(region) = self.file.text.get(from..fm.yaml.end) else {
            return;
        };
        let Some(at) = region.find("---") else {
            return;
        };
        let start = from + at;
        let d = self
            .diag(
                &rules::UNPORTABLE_FRONT_MATTER,
                Span::new(start, start + 3),
                "`---` inside the front matter: the reference validator ends the front matter here",
            )
            .label("read as the closing `---`")
            .note("the reference validator splits the file at the first three hyphens after the opening line, so what follows is not read as front matter")
            .help("write the value without three hyphens in a row (an em dash, or `- -`)");
        self.push(d.note(REFUSED));
    }

    /// Flow collections, aliases, anchors, tags and tabs of the front matter under `root`.
    pub(super) fn strict_yaml(&mut self, root: &Node, yaml: Span) {
        // Only those the rule's cap may show are held: every flow mapping of a long front
        // matter is one (2.4 million took 80 MiB to sort).
        let mut found: Found = Least::new(MAX_PER_RULE + 1, |(_, span)| *span);
        let mut masks: Vec<Mask> = Vec::new();
        self.visit(root, false, &mut masks, &mut found);
        masks.sort_unstable();
        let text = &self.file.text;
        let mut masks = masks.into_iter().peekable();
        let mut comment = false;
        let Some(region) = text.get(yaml.start..yaml.end) else {
            return;
        };
        let mut skip_to = 0;
        for (i, c) in region.char_indices() {
            let at = yaml.start + i;
            if at < skip_to {
                continue;
            }
            while masks.peek().is_some_and(|m| m.1 as usize <= at) {
                masks.next();
            }
            if masks
                .peek()
                .is_some_and(|m| m.0 as usize <= at && at < m.1 as usize)
            {
                continue;
            }
            match c {
                '\n' => comment = false,
                _ if comment => {}
                '#' => comment = true,
                '&' | '!' => {
                    let construct = if c == '&' {
                        Construct::Anchor
                    } else {
                        Construct::Tag
                    };
                    let token = token_at(text, at);
                    skip_to = token.end;
                    found.push((construct, token));
                }
                '\t' => found.push((Construct::Tab, Span::new(at, at + 1))),
                _ => {}
            }
        }
        let (found, more) = found.finish();
        for (construct, span) in found {
            // Past the rule's cap, counted without a finding built for it.
            if self.diags.counted(&rules::UNPORTABLE_FRONT_MATTER) {
                continue;
            }
            let d = self
                .diag(&rules::UNPORTABLE_FRONT_MATTER, span, construct.message())
                .label(construct.label())
                .note(REFUSED)
                .help(construct.help());
            self.push(d);
        }
        // Past the cap (which the first `MAX_PER_RULE + 1` reached).
        for _ in 0..more {
            self.diags.count(&rules::UNPORTABLE_FRONT_MATTER);
        }
    }

    /// Note the constructs of `node` and mask the text its scalars (and keys) cover.
    fn visit(&self, node: &Node, in_flow: bool, masks: &mut Vec<Mask>, found: &mut Found) {
        let source = self.file.slice(node.span());
        if source.starts_with('*') {
            found.push((
                Construct::Alias,
                token_at(&self.file.text, node.span().start),
            ));
            masks.push(mask(node.span()));
            return;
        }
        match &node.kind {
            NodeKind::Seq(items) => {
                let flow = source.starts_with('[');
                if flow && !in_flow {
                    found.push((Construct::Flow, node.span()));
                }
                // One at a time: a long list is held packed, and its nodes built for the
                // whole list were eight times its text.
                for item in items.scan() {
                    self.visit(&item, in_flow || flow, masks, found);
                }
            }
            NodeKind::Map(entries) => {
                let flow = source.starts_with('{');
                if flow && !in_flow {
                    found.push((Construct::Flow, node.span()));
                }
                for e in entries.scan() {
                    self.mask(e.key_span(), masks);
                    self.visit(&e.value, in_flow || flow, masks, found);
                }
            }
            _ => {
                self.mask(node.span(), masks);
                let plain = !source.starts_with(['"', '\'']) && !self.is_block_scalar(node.span());
                if plain && let Some(i) = source.find('\t') {
                    let at = node.span().start + i;
                    found.push((Construct::Tab, Span::new(at, at + 1)));
                }
            }
        }
    }

    /// Mask the scalar (or key) at `span` from the scan for constructs when it holds a
    /// character the scan reads (`#`, `&`, `!`, a tab): elsewhere the scan finds nothing in
    /// it unmasked (a line end inside it ends no comment: none runs into a scalar). A mask
    /// for every scalar of front matter of 250,000 flow mappings took four times its size.
    fn mask(&self, span: Span, masks: &mut Vec<Mask>) {
        if self.file.slice(span).contains(['#', '&', '!', '\t']) {
            masks.push(mask(span));
        }
    }

    /// True when the scalar at `span` is the content of a `|` or `>` block scalar.
    fn is_block_scalar(&self, span: Span) -> bool {
        let before = self.file.text.get(..span.start).unwrap_or("");
        // The content starts on a line after its header, so only whitespace separates them;
        // asked first, since the header's line is searched back for (a flow list of a
        // million items on one line searched it back to its start for each).
        let above = before.trim_end();
        if !before[above.len()..].contains('\n') {
            return false;
        }
        let Some(header) = above.rsplit('\n').next() else {
            return false;
        };
        let header = header.split(" #").next().unwrap_or(header).trim_end();
        let indicators =
            header.trim_end_matches(|c: char| c == '+' || c == '-' || c.is_ascii_digit());
        indicators.ends_with(['|', '>'])
    }
}

/// The bytes a scalar or key covers, which the scan for constructs skips: 8 bytes where a
/// `Span` takes 16 (front matter of millions of scalars; files are read up to 64 MiB).
type Mask = (u32, u32);

fn mask(span: Span) -> Mask {
    let at = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    (at(span.start), at(span.end))
}

/// The word starting at `at` (an anchor, alias or tag), up to whitespace.
fn token_at(text: &str, at: usize) -> Span {
    let rest = text.get(at..).unwrap_or("");
    let len = rest
        .find(|c: char| c.is_whitespace() || matches!(c, ',' | ']' | '}'))
        .unwrap_or(rest.len());
    Span::new(at, at + len.max(1))
}
