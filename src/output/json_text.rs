//! JSON as the machine-read formats (JSON, SARIF, GitLab, rdjson) write it: indented, and
//! with every character [`crate::diagnostics::shown`] spells out in the text outputs written
//! as a `\u` escape. `serde_json` writes bidirectional and invisible characters, C1 controls
//! and the line and paragraph separators raw; a code-scanning view that renders a message
//! would reorder it, and JavaScript that embeds the JSON breaks on U+2028.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// Write `value` to `out` as indented JSON, escaping what a reader would obey.
pub(crate) fn write_json<W: Write + ?Sized, T: Serialize + ?Sized>(
    out: &mut W,
    value: &T,
) -> io::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, Escaping::default());
    value.serialize(&mut serializer).map_err(io::Error::from)
}

/// serde_json's indented formatter, its strings' fragments escaped where they hold a
/// character to show.
#[derive(Default)]
struct Escaping(PrettyFormatter<'static>);

impl Formatter for Escaping {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut plain = 0;
        for (at, c) in fragment.char_indices() {
            if !crate::diagnostics::shown(c) {
                continue;
            }
            writer.write_all(&fragment.as_bytes()[plain..at])?;
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            plain = at + c.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[plain..])
    }

    // The rest is the indented formatter's.
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::write_json;

    fn written(value: &serde_json::Value) -> String {
        let mut out = Vec::new();
        write_json(&mut out, value).expect("written");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn what_a_reader_would_obey_is_escaped_and_reads_back_the_same() {
        let value = serde_json::json!({
            "message": "adm\u{202e}ni\u{2028}x\u{85}y\u{e0041}\n\"é ✓",
            "k\u{200b}": [1, "plain"],
        });
        let text = written(&value);
        for raw in ['\u{202e}', '\u{2028}', '\u{85}', '\u{e0041}', '\u{200b}'] {
            assert!(!text.contains(raw), "{raw:?} raw in {text}");
        }
        assert!(
            text.contains(r#"adm\u202eni\u2028x\u0085y\udb40\udc41\n\"é ✓"#),
            "{text}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(back, value);
        assert_eq!(
            written(&serde_json::json!({"a": [1]})),
            "{\n  \"a\": [\n    1\n  ]\n}"
        );
    }
}
