//! YAML parser errors in toolc's words: what is wrong at this place, said for someone who
//! writes tool definitions rather than YAML parsers, and what to do about it. The parser's
//! own text ("while parsing a block mapping, did not find expected key") stays only for a
//! message this table does not know, after toolc's words.

/// A parser error as toolc says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Phrase {
    /// The diagnostic's message.
    pub message: String,
    /// The help: the usual cause, said as a fix.
    pub help: &'static str,
}

/// Quoting, the fix for most YAML surprises in tool definitions.
const QUOTE_HELP: &str = "quote the value (`'…'`, or `\"…\"` with `\\\\` for a backslash), or write it as a block scalar: `key: |` with the text indented on the next lines";

/// (a fragment of the parser's message, toolc's message, the help), first match wins.
const TABLE: &[(&str, &str, &str)] = &[
    (
        "mapping values are not allowed",
        "`: ` inside an unquoted value starts a new mapping here",
        "quote the whole value, or write it as a block scalar (`key: |` and the value indented on the next lines)",
    ),
    (
        "mapping keys are not allowed",
        "a key appears where a value is expected",
        "put the nested mapping on the next lines, indented, or quote the value",
    ),
    (
        "unknown escape character",
        "a backslash escape that YAML does not know, inside double quotes",
        "inside double quotes only YAML escapes such as `\\n`, `\\\"` and `\\\\` are allowed: use single quotes or a block scalar for shell text",
    ),
    (
        "a tab is used for indentation",
        "a tab is used for indentation; YAML indents with spaces only",
        "indent with spaces",
    ),
    (
        "tab",
        "a tab where YAML needs spaces",
        "indent with spaces; inside a value, quote it if the tab belongs to the text",
    ),
    (
        "did not find expected key",
        "this line does not continue the mapping above it: it is not `key: value`, or not indented like the keys around it",
        "line the key up with its siblings (same indentation, `key: value`); if the line continues the previous value, quote that value or use a block scalar",
    ),
    (
        "did not find expected '-' indicator",
        "a list item and a line that is not one are at the same indentation",
        "start every item of the list with `- ` at the same indentation, and indent what belongs to an item further",
    ),
    (
        "block sequence entries are not allowed",
        "a `- ` list item where the value of a key on the same line is expected",
        "put the list on the next lines, indented under the key, or quote the value if it starts with `- `",
    ),
    (
        "unclosed quote",
        "a quoted value is never closed",
        "close the quote at the end of the value; a quote inside the value is doubled in `'…'` (`''`) or escaped in `\"…\"` (`\\\"`)",
    ),
    (
        "after double-quoted scalar",
        "text follows the closing `\"` of a quoted value",
        "quote the whole value: a value that starts with a quote must end with it",
    ),
    (
        "after single-quoted scalar",
        "text follows the closing `'` of a quoted value",
        "quote the whole value: a value that starts with a quote must end with it (a `'` inside it is written `''`)",
    ),
    (
        "unclosed bracket",
        "a `[` or `{` is never closed",
        "close the list or mapping, or quote the value if the bracket belongs to the text",
    ),
    (
        "mismatched bracket",
        "a `[` is closed by `}`, or a `{` by `]`",
        "close each list with `]` and each mapping with `}`, or quote the value if the brackets belong to the text",
    ),
    (
        "unexpected eof while parsing a flow",
        "a `[…]` list or `{…}` mapping is not closed before the end of the file",
        "close it, or quote the value if the bracket belongs to the text",
    ),
    (
        "did not find expected ',' or '}'",
        "the items of a `{…}` mapping are not separated by `,`",
        "separate the items with `, `, and quote a value that contains `,`, `:`, `{` or `}`",
    ),
    (
        "expected ',' or ']'",
        "the items of a `[…]` list are not separated by `,`",
        "separate the items with `, `, and quote an item that contains `,`, `[` or `]`",
    ),
    (
        "unknown anchor",
        "`*name` refers to an anchor `&name` that is not defined before it",
        "define `&name` on a value above, or quote the value if the `*` belongs to the text",
    ),
    (
        "did not find expected node content",
        "a value is expected here",
        "write the value; a value that starts with `@`, `` ` ``, `%`, `!`, `&`, `*`, `|` or `>` must be quoted",
    ),
    (
        "simple key",
        "a key is missing its `:`, or runs over more than one line",
        "write `key: value` with the key on one line; quote a value that is a long text",
    ),
    (
        "could not find expected ':'",
        "a key is missing its `:`",
        "write `key: value`; quote a value that is meant as text",
    ),
    (
        "invalid indentation",
        "the indentation does not fit the structure around it",
        "indent with spaces, each level deeper than its parent and siblings at the same column",
    ),
    (
        "wrongly indented line in block scalar",
        "a line of a block scalar (`|` or `>`) is indented less than its first line",
        "indent every line of the text at least as far as its first line",
    ),
    (
        "comments must be separated",
        "`#` right after other text",
        "put a space before `#` to start a comment, or quote the value that contains `#`",
    ),
    (
        "plain scalar cannot start with",
        "an unquoted value starts with `-` followed by a bracket or comma",
        QUOTE_HELP,
    ),
    (
        "unexpected character",
        "a character that cannot start an unquoted value",
        QUOTE_HELP,
    ),
    (
        "document start",
        "text after the end of the document",
        "remove the text after `...` or a second `---`, or start it with `#` to make it a comment",
    ),
    (
        "a mapping key must be a plain value",
        "a mapping key must be a plain value, not a list or mapping",
        "write the key as text (`key: value`), and the list or mapping as its value",
    ),
];

/// toolc's words for the YAML parser's `raw` message.
pub(crate) fn phrase(raw: &str) -> Phrase {
    let lower = raw.to_ascii_lowercase();
    TABLE
        .iter()
        .find(|(fragment, _, _)| lower.contains(fragment))
        .map_or_else(
            || Phrase {
                message: format!("this is not valid YAML ({raw})"),
                help: "check the indentation and the quoting here; quote values that contain `: ` or ` #`, or that start with `[`, `{`, `*`, `&`, `!`, `|`, `>`, `%` or `@`",
            },
            |(_, message, help)| Phrase {
                message: (*message).to_string(),
                help,
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parser_text_becomes_a_message_and_a_help() {
        let p = phrase("while parsing a block mapping, did not find expected key");
        assert!(
            p.message
                .starts_with("this line does not continue the mapping")
        );
        assert!(!p.help.is_empty());
        let p = phrase("mapping values are not allowed in this context");
        assert_eq!(
            p.message,
            "`: ` inside an unquoted value starts a new mapping here"
        );
        let unknown = phrase("something new");
        assert_eq!(unknown.message, "this is not valid YAML (something new)");
    }
}
