//! The start of a value's JSON, written without building the rest: a finding shows the
//! first 60 characters of the value it failed on, and a message at most
//! [`super::TEXT_MAX`] bytes of a field, where `to_json` first built the whole of it (a
//! `falsy` rule on a file's root copied the whole file for every finding). The text is the
//! one `serde_json` would print, keys sorted as its maps sort them.

use std::io;

use serde::Serialize;

use super::val::{Peek, Val};
use crate::syntax::{Kind, NodeAt};

/// A writer that keeps at most `room` bytes and then fails: the writing stops there.
struct Capped {
    out: Vec<u8>,
    room: usize,
    cut: bool,
}

impl io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let fits = buf.len().min(self.room - self.out.len());
        self.out.extend_from_slice(&buf[..fits]);
        if fits < buf.len() {
            self.cut = true;
            return Err(io::Error::other("full"));
        }
        Ok(fits)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The first `room` bytes of `v`'s compact JSON (cut at a character), and whether there
/// was more.
pub(crate) fn json_start(v: Val<'_>, room: usize) -> (String, bool) {
    let mut w = Capped {
        out: Vec::new(),
        room,
        cut: false,
    };
    let _ = write(v, &mut w);
    let mut text = String::from_utf8_lossy(&w.out).into_owned();
    if w.cut {
        // A character cut in two is not shown.
        if text.ends_with('\u{fffd}') {
            text.pop();
        }
    }
    (text, w.cut)
}

fn put(w: &mut Capped, s: &str) -> io::Result<()> {
    io::Write::write_all(w, s.as_bytes())
}

fn put_json<T: Serialize + ?Sized>(w: &mut Capped, value: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *w, value).map_err(io::Error::other)
}

fn write(v: Val<'_>, w: &mut Capped) -> io::Result<()> {
    match v {
        Val::Json(value) => put_json(w, value),
        Val::Tree(node) => match node.kind() {
            Kind::Map(_) => {
                put(w, "{")?;
                // A JSON map sorts its keys, and keeps the last of two alike. Each pass over
                // the entries takes the next keys in order, a batch of them: one key a pass
                // read a map of a million entries a hundred times for a short preview.
                const BATCH: usize = 64;
                let mut last: Option<&str> = None;
                let mut first = true;
                loop {
                    let mut next: Vec<(&str, NodeAt<'_>)> = Vec::with_capacity(BATCH + 1);
                    for (k, _, value) in node.entries() {
                        if last.is_some_and(|l| k <= l) {
                            continue;
                        }
                        match next.binary_search_by(|(n, _)| (*n).cmp(k)) {
                            Ok(i) => next[i].1 = value,
                            Err(i) if i < BATCH => {
                                next.insert(i, (k, value));
                                next.truncate(BATCH);
                            }
                            Err(_) => {}
                        }
                    }
                    let Some(&(end, _)) = next.last() else {
                        break;
                    };
                    for (k, value) in next {
                        if !first {
                            put(w, ",")?;
                        }
                        first = false;
                        put_json(w, k)?;
                        put(w, ":")?;
                        write(Val::Tree(value), w)?;
                    }
                    last = Some(end);
                }
                put(w, "}")
            }
            Kind::Seq(_) => {
                put(w, "[")?;
                for (i, item) in node.items().enumerate() {
                    if i > 0 {
                        put(w, ",")?;
                    }
                    write(Val::Tree(item), w)?;
                }
                put(w, "]")
            }
            _ => match v.peek() {
                Peek::Str(s) => put_json(w, s),
                Peek::Scalar(scalar) => put_json(w, &scalar),
                Peek::List(_) | Peek::Map(_) => Ok(()),
            },
        },
        Val::Fields(_) => {
            put(w, "{")?;
            let mut first = true;
            v.children(&mut |edge, child| {
                let done = (|| {
                    if !first {
                        put(w, ",")?;
                    }
                    first = false;
                    if let super::val::Edge::Key(k) = edge {
                        put_json(w, k)?;
                    }
                    put(w, ":")?;
                    write(child, w)
                })();
                done.is_err()
            });
            if w.cut {
                return Err(io::Error::other("full"));
            }
            put(w, "}")
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Every kind of value writes as `serde_json` prints its JSON, and stops where asked.
    #[test]
    fn the_start_is_the_json_serde_prints() {
        let doc = json!({
            "zeta": [1, 2.5, null, true, "a\"b"],
            "alpha": {"b": {"c": []}, "a": {}},
            "é": "ünïcödé",
            "n": -3
        });
        let tree = crate::syntax::yaml::parse(
            "zeta: [1, 2.5, null, true, 'a\"b']\nalpha: {b: {c: []}, a: {}}\né: ünïcödé\nn: -3\ndup: 1\ndup: 2\n",
            0,
        )
        .root
        .expect("parses");
        let tree_json = tree.to_json();
        // More keys than a pass over the entries takes at once, written out of order.
        let keys: Vec<String> = (0..150).rev().map(|i| format!("k{i}: {i}\n")).collect();
        let wide = crate::syntax::yaml::parse(&keys.concat(), 0)
            .root
            .expect("parses");
        for (v, whole) in [
            (Val::Json(&doc), doc.to_string()),
            (Val::Tree(NodeAt::from(&tree)), tree_json.to_string()),
            (Val::Tree(NodeAt::from(&wide)), wide.to_json().to_string()),
        ] {
            assert_eq!(json_start(v, 10_000), (whole.clone(), false));
            for room in 0..whole.len() {
                let (start, cut) = json_start(v, room);
                assert!(cut, "{room}");
                assert!(whole.starts_with(&start), "{start} of {whole}");
                assert!(
                    start.len() <= room && start.len() + 4 > room,
                    "{room}: {start}"
                );
            }
        }
    }
}
