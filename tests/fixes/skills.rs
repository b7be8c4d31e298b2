//! The fixable defects of Agent Skills (`SKILL.md`).

use super::*;

const SKILL_MD: &str = ".claude/skills/pdf-tools/SKILL.md";

/// A valid Agent Skill in the folder `pdf-tools`.
const AGENT_SKILL: &str = "---
name: pdf-tools
description: Extracts text and tables from PDF files. Use when the user mentions PDFs.
allowed-tools: Read Grep
metadata:
  version: \"1.10\"
---
# PDF tools

The field types are in [the form reference](references/FORMS.md).
";

pub(super) fn cases() -> Vec<Case> {
    vec![
        // Agent Skills
        case(
            "SKL001",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "name:", "nmae:")),
        ),
        case(
            "SKL003",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "name: pdf-tools", "name: PDF_Tools")),
        ),
        case(
            "SKL004",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "name: pdf-tools", "name: pdf-kit")),
        ),
        case(
            "SKL006",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "allowed-tools:", "allowed-tool:")),
        ),
        case(
            "SKL008",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "Read Grep", "Read, Grep")),
        ),
        case(
            "SKL009",
            SKILL_MD,
            skill(edit(AGENT_SKILL, "\"1.10\"", "1.10")),
        ),
        case("SKL010", SKILL_MD, skill(format!("\u{feff}{AGENT_SKILL}"))),
        case(
            "SKL020",
            SKILL_MD,
            skill(edit(
                AGENT_SKILL,
                "name: pdf-tools",
                "name: \" pdf-tools \"",
            )),
        ),
        case(
            "SKL011",
            SKILL_MD,
            skill(edit(
                AGENT_SKILL,
                "references/FORMS.md",
                "references/FORM.md",
            )),
        ),
        case(
            "SKL021",
            SKILL_MD,
            skill(edit(
                AGENT_SKILL,
                "references/FORMS.md",
                "references/forms.md",
            )),
        ),
    ]
}

/// A skill whose `SKILL.md` is `text`, with the reference file it links.
fn skill(text: String) -> Vec<(&'static str, String)> {
    vec![
        (SKILL_MD, text),
        (
            ".claude/skills/pdf-tools/references/FORMS.md",
            "# Form fields\n".to_string(),
        ),
    ]
}
