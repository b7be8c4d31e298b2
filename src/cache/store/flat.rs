//! The index's own encoding: fixed-width little-endian fields in lists that say their length
//! first. A warm run decodes the whole index before its first lookup: through serde, each of
//! a large repository's records was read field by field through visitors (7 % of a warm
//! one-file check's CPU at 10,000 tools); here a record is one slice.
//!
//! ```text
//! index:  names (u32 length, UTF-8) | entries | files | deps   (each list: u32 count, records)
//! entry:  path cwd (u32 pair each) | format claimed racy blobs (u8 each) | stat | digest
//!         | deps files (u32 pair each) | notes item (blob each) | tools (u32) | sum
//! file:   path | format (u8) | bom length (u32) | digest
//! dep:    path | what was seen (u8 tag, then its stat and digest, digest, or link target)
//! stat:   length (u64) | mtime seconds (i64) | mtime nanoseconds (u32) | inode (u64)
//! blob:   offset (u64) | length (u32) | check (16 bytes)
//! ```

use super::super::fixed::{Reader, STAT, put_stat, put_str, put_u32, variant};
use super::super::hash::Check;
use super::super::track::Seen;
use super::{Blob, DepEntry, Entry, FileEntry, Index, Name};

const BLOB: usize = 8 + 4 + 16;
const ENTRY: usize = 8 + 8 + 4 + STAT + 32 + 8 + 8 + 2 * BLOB + 4 + 32;
const FILE: usize = 8 + 1 + 4 + 32;

const ABSENT: u8 = 0;
const PRESENT: u8 = 1;
const READ: u8 = 2;
const LISTED: u8 = 3;
const LINK_OUT: u8 = 4;
const LINK_IN: u8 = 5;

/// The encoding of `index`, given to `out` a part at a time.
pub(super) fn encode(index: &Index, out: &mut impl FnMut(&[u8])) {
    let mut buf: Vec<u8> = Vec::with_capacity(ENTRY.max(256));
    put_u32(&mut buf, index.names.len() as u32);
    out(&buf);
    out(index.names.as_bytes());
    buf.clear();
    put_u32(&mut buf, index.entries.len() as u32);
    for e in &index.entries {
        put_name(&mut buf, e.path);
        put_name(&mut buf, e.cwd);
        buf.push(e.format as u8);
        buf.push(match e.claimed {
            None => 0,
            Some(false) => 1,
            Some(true) => 2,
        });
        buf.push(u8::from(e.racy));
        buf.push(u8::from(e.notes.is_some()) | (u8::from(e.item.is_some()) << 1));
        put_stat(&mut buf, &e.stat);
        buf.extend_from_slice(&e.digest);
        put_name(&mut buf, e.deps);
        put_name(&mut buf, e.files);
        put_blob(&mut buf, e.notes);
        put_blob(&mut buf, e.item);
        put_u32(&mut buf, e.tools);
        buf.extend_from_slice(&e.sum);
        out(&buf);
        buf.clear();
    }
    put_u32(&mut buf, index.files.len() as u32);
    for f in &index.files {
        put_name(&mut buf, f.path);
        buf.push(f.format as u8);
        put_u32(&mut buf, f.bom_len);
        buf.extend_from_slice(&f.digest);
        out(&buf);
        buf.clear();
    }
    put_u32(&mut buf, index.deps.len() as u32);
    for d in &index.deps {
        put_name(&mut buf, d.path);
        match &d.seen {
            Seen::Absent => buf.push(ABSENT),
            Seen::Present => buf.push(PRESENT),
            Seen::Read(stat, digest) => {
                buf.push(READ);
                put_stat(&mut buf, stat);
                buf.extend_from_slice(digest);
            }
            Seen::Listed(digest) => {
                buf.push(LISTED);
                buf.extend_from_slice(digest);
            }
            Seen::LinkOut(Some(to)) => {
                buf.push(LINK_OUT);
                put_str(&mut buf, to);
            }
            Seen::LinkOut(None) => buf.push(LINK_IN),
        }
        out(&buf);
        buf.clear();
    }
}

/// The index `bytes` encode; none when they do not (short, a count beyond what is there, an
/// unknown tag, a name that is not UTF-8, bytes left over).
pub(super) fn decode(bytes: &[u8]) -> Option<Index> {
    let mut r = Reader(bytes);
    let names_len = r.u32()? as usize;
    let names = String::from_utf8(r.take(names_len)?.to_vec()).ok()?;
    let count = r.count(ENTRY)?;
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        let mut e = Reader(r.take(ENTRY)?);
        let path = e.name()?;
        let cwd = e.name()?;
        let format = variant(e.u8()?)?;
        let claimed = match e.u8()? {
            0 => None,
            1 => Some(false),
            2 => Some(true),
            _ => return None,
        };
        let racy = e.flag()?;
        // Which of the two blobs are there; no other bit means anything.
        let blobs = e.u8().filter(|b| b & !3 == 0)?;
        let stat = e.stat()?;
        let digest = e.array()?;
        let deps = e.name()?;
        let files = e.name()?;
        let notes = e.blob(blobs & 1 != 0)?;
        let item = e.blob(blobs & 2 != 0)?;
        let tools = e.u32()?;
        let sum = e.array()?;
        entries.push(Entry {
            path,
            cwd,
            format,
            claimed,
            stat,
            digest,
            racy,
            deps,
            files,
            notes,
            item,
            tools,
            sum,
        });
    }
    let count = r.count(FILE)?;
    let mut files = Vec::with_capacity(count);
    for _ in 0..count {
        let mut f = Reader(r.take(FILE)?);
        files.push(FileEntry {
            path: f.name()?,
            format: variant(f.u8()?)?,
            bom_len: f.u32()?,
            digest: f.array()?,
        });
    }
    // A dependency is at least its path and tag.
    let count = r.count(9)?;
    let mut deps = Vec::with_capacity(count);
    for _ in 0..count {
        let path = r.name()?;
        let seen = match r.u8()? {
            ABSENT => Seen::Absent,
            PRESENT => Seen::Present,
            READ => Seen::Read(r.stat()?, r.array()?),
            LISTED => Seen::Listed(r.array()?),
            LINK_OUT => Seen::LinkOut(Some(r.str()?.to_string())),
            LINK_IN => Seen::LinkOut(None),
            _ => return None,
        };
        deps.push(DepEntry { path, seen });
    }
    r.is_done().then_some(Index {
        names,
        entries,
        files,
        deps,
    })
}

fn put_name(buf: &mut Vec<u8>, (from, to): Name) {
    put_u32(buf, from);
    put_u32(buf, to);
}

/// A blob, or zeros in its place.
fn put_blob(buf: &mut Vec<u8>, blob: Option<Blob>) {
    let b = blob.unwrap_or(Blob {
        at: 0,
        len: 0,
        sum: [0; 16],
    });
    buf.extend_from_slice(&b.at.to_le_bytes());
    put_u32(buf, b.len);
    buf.extend_from_slice(&b.sum);
}

/// Reading what [`encode`] writes.
trait IndexFields {
    fn name(&mut self) -> Option<Name>;
    fn blob(&mut self, there: bool) -> Option<Option<Blob>>;
}

impl IndexFields for Reader<'_> {
    fn name(&mut self) -> Option<Name> {
        Some((self.u32()?, self.u32()?))
    }

    fn blob(&mut self, there: bool) -> Option<Option<Blob>> {
        let at = self.u64()?;
        let len = self.u32()?;
        let sum: Check = self.array()?;
        Some(there.then_some(Blob { at, len, sum }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Stat;
    use crate::source::{Digest, FormatId};

    fn stat(n: u64) -> Stat {
        Stat {
            len: n,
            mtime_secs: -(n as i64),
            mtime_nanos: n as u32 + 1,
            inode: u64::MAX - n,
        }
    }

    fn sample() -> Index {
        let names = "/r/a.yamlé/r/s.json/r".to_string();
        let digest = |b: u8| -> Digest { [b; 32] };
        let entry = |path: Name, claimed, notes: bool| Entry {
            path,
            cwd: (20, 22),
            format: FormatId::DojopsTool,
            claimed,
            stat: stat(7),
            digest: digest(1),
            racy: notes,
            deps: (0, 6),
            files: (0, 1),
            notes: notes.then_some(Blob {
                at: 12,
                len: 40,
                sum: [9; 16],
            }),
            item: Some(Blob {
                at: 52,
                len: u32::MAX,
                sum: [8; 16],
            }),
            tools: 3,
            sum: digest(2),
        };
        Index {
            names,
            entries: vec![
                entry((0, 9), None, true),
                entry((11, 20), Some(false), false),
                entry((0, 11), Some(true), false),
            ],
            files: vec![FileEntry {
                path: (0, 9),
                format: FormatId::AgentSkill,
                bom_len: 3,
                digest: digest(4),
            }],
            deps: vec![
                DepEntry {
                    path: (11, 20),
                    seen: Seen::Read(stat(5), digest(6)),
                },
                DepEntry {
                    path: (0, 9),
                    seen: Seen::Absent,
                },
                DepEntry {
                    path: (0, 9),
                    seen: Seen::Present,
                },
                DepEntry {
                    path: (0, 9),
                    seen: Seen::Listed(digest(7)),
                },
                DepEntry {
                    path: (0, 9),
                    seen: Seen::LinkOut(Some("/elsewhere/ü".into())),
                },
                DepEntry {
                    path: (0, 9),
                    seen: Seen::LinkOut(None),
                },
            ],
        }
    }

    fn encoded(index: &Index) -> Vec<u8> {
        let mut bytes = Vec::new();
        encode(index, &mut |part| bytes.extend_from_slice(part));
        bytes
    }

    /// Every field of every record, as text (the index's types compare no other way).
    fn shown(index: &Index) -> String {
        let blob = |b: &Option<Blob>| b.map(|b| (b.at, b.len, b.sum));
        let mut out = format!("{:?}\n", index.names);
        for e in &index.entries {
            out += &format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {} {:?} {:?} {:?} {:?} {:?}\n",
                e.path,
                e.cwd,
                e.format,
                e.claimed,
                e.stat,
                e.digest,
                e.racy,
                e.tools,
                e.deps,
                e.files,
                blob(&e.notes),
                blob(&e.item),
                e.sum,
            );
        }
        for f in &index.files {
            out += &format!("{:?} {:?} {} {:?}\n", f.path, f.format, f.bom_len, f.digest);
        }
        for d in &index.deps {
            out += &format!("{:?} {:?}\n", d.path, d.seen);
        }
        out
    }

    #[test]
    fn an_index_reads_back_as_it_was_written() {
        let index = sample();
        let back = decode(&encoded(&index)).expect("decodes");
        assert_eq!(shown(&back), shown(&index));
    }

    #[test]
    fn damaged_bytes_decode_to_nothing_and_allocate_nothing_for_a_damaged_count() {
        let bytes = encoded(&sample());
        // Every shorter prefix, and one byte more.
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len]).is_none(), "prefix of {len} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer).is_none());
        // A count of four billion entries is refused before anything is allocated for them.
        let names_len = u32::from_le_bytes(bytes[..4].try_into().expect("four bytes")) as usize;
        let mut huge = bytes.clone();
        huge[4 + names_len..8 + names_len].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(&huge).is_none());
        // Any single byte changed: nothing decodes wrongly into a panic.
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 0xff;
            let _ = decode(&changed);
        }
    }
}
