//! How the walks are written into the cache file: each root's walk as one run of bytes for
//! the root and its inputs, then one per folder, in fixed-width little-endian fields. A warm
//! run decodes every folder before it can stat the first; through serde's derive each of a
//! folder's fields and entries was a visit of its own.
//!
//! ```text
//! root:   path | inputs
//! folder: rel | mtime seconds (i64) | nanoseconds (u32) | inode (u64) | racy git (u8 each)
//!         | entries (u32 count; name, kind (u8), format (u8: 0 none, else its number + 1))
//!         | inputs | probes (u32 count; name, is a file (u8))
//! inputs: u32 count; path, then 0, or 1 and its stat
//! text:   u32 length, UTF-8
//! ```
//!
//! A walk with a path that is not UTF-8 is not written (the next run walks that root again).

use std::path::{Path, PathBuf};

use compact_str::CompactString;
use serde::de::{Error as _, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::super::fixed::{Reader, put_stat, put_str, put_u32, variant};
use super::{DirStat, Folder, Input, Kept, RootWalk};
use crate::discover::Kind;
use crate::source::FormatId;

impl Serialize for Kept {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let walks: Vec<&RootWalk> = self.0.iter().filter(|w| encodable(w)).collect();
        let mut seq = s.serialize_seq(Some(walks.len()))?;
        for walk in walks {
            seq.serialize_element(&Written(walk))?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Kept {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Kept, D::Error> {
        struct Walks;
        impl<'de> Visitor<'de> for Walks {
            type Value = Kept;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("walks")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Kept, A::Error> {
                let mut walks = Vec::new();
                while let Some(Read(walk)) = seq.next_element()? {
                    walks.push(walk);
                }
                Ok(Kept(walks))
            }
        }
        d.deserialize_seq(Walks)
    }
}

/// A root's walk on its way out.
struct Written<'a>(&'a RootWalk);

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let walk = self.0;
        let mut buf = Vec::with_capacity(256);
        put_path(&mut buf, &walk.root);
        put_inputs(&mut buf, &walk.inputs);
        let mut tuple = s.serialize_tuple(2)?;
        tuple.serialize_element(&Bytes(&buf))?;
        tuple.serialize_element(&Folders(&walk.folders))?;
        tuple.end()
    }
}

/// A walk's folders, each as its bytes.
struct Folders<'a>(&'a [Folder]);

impl Serialize for Folders<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        let mut buf = Vec::with_capacity(256);
        for folder in self.0 {
            buf.clear();
            put_folder(&mut buf, folder);
            seq.serialize_element(&Bytes(&buf))?;
        }
        seq.end()
    }
}

/// Bytes written as one run (serde writes a `[u8]` one number at a time).
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// A root's walk read back.
struct Read(RootWalk);

impl<'de> Deserialize<'de> for Read {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Read, D::Error> {
        struct Walk;
        impl<'de> Visitor<'de> for Walk {
            type Value = Read;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a walk")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Read, A::Error> {
                let damaged = || A::Error::custom("a damaged walk");
                let head: &[u8] = seq.next_element()?.ok_or_else(damaged)?;
                let mut r = Reader(head);
                let root = PathBuf::from(r.str().ok_or_else(damaged)?);
                let inputs = read_inputs(&mut r).ok_or_else(damaged)?;
                if !r.is_done() {
                    return Err(damaged());
                }
                let ReadFolders(folders) = seq.next_element()?.ok_or_else(damaged)?;
                Ok(Read(RootWalk {
                    root,
                    inputs,
                    folders,
                    by_rel: Default::default(),
                }))
            }
        }
        d.deserialize_tuple(2, Walk)
    }
}

/// A walk's folders read back.
struct ReadFolders(Vec<Folder>);

impl<'de> Deserialize<'de> for ReadFolders {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ReadFolders, D::Error> {
        struct All;
        impl<'de> Visitor<'de> for All {
            type Value = ReadFolders;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("folders")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ReadFolders, A::Error> {
                // The count is the file's: bounded by what the file holds, not trusted ahead.
                let mut folders = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                while let Some(bytes) = seq.next_element::<&[u8]>()? {
                    let folder = read_folder(&mut Reader(bytes))
                        .ok_or_else(|| A::Error::custom("a damaged folder"))?;
                    folders.push(folder);
                }
                Ok(ReadFolders(folders))
            }
        }
        d.deserialize_seq(All)
    }
}

/// True when every path of `walk` is UTF-8 (and so can be written).
fn encodable(walk: &RootWalk) -> bool {
    let utf8 = |inputs: &[Input]| inputs.iter().all(|i| i.path.to_str().is_some());
    walk.root.to_str().is_some()
        && utf8(&walk.inputs)
        && walk.folders.iter().all(|f| utf8(&f.inputs))
}

fn put_path(buf: &mut Vec<u8>, path: &Path) {
    put_str(buf, path.to_str().unwrap_or_default());
}

fn put_inputs(buf: &mut Vec<u8>, inputs: &[Input]) {
    put_u32(buf, inputs.len() as u32);
    for input in inputs {
        put_path(buf, &input.path);
        match &input.stat {
            None => buf.push(0),
            Some(stat) => {
                buf.push(1);
                put_stat(buf, stat);
            }
        }
    }
}

fn put_folder(buf: &mut Vec<u8>, f: &Folder) {
    put_str(buf, &f.rel);
    buf.extend_from_slice(&f.stat.mtime_secs.to_le_bytes());
    buf.extend_from_slice(&f.stat.mtime_nanos.to_le_bytes());
    buf.extend_from_slice(&f.stat.inode.to_le_bytes());
    buf.push(u8::from(f.racy));
    buf.push(u8::from(f.git));
    put_u32(buf, f.entries.len() as u32);
    for (name, kind, format) in &f.entries {
        put_str(buf, name);
        buf.push(*kind as u8);
        buf.push(format.map_or(0, |f| f as u8 + 1));
    }
    put_inputs(buf, &f.inputs);
    put_u32(buf, f.probes.len() as u32);
    for (name, is_file) in &f.probes {
        put_str(buf, name);
        buf.push(u8::from(*is_file));
    }
}

fn read_inputs(r: &mut Reader<'_>) -> Option<Vec<Input>> {
    // An input is at least its path's length and a byte.
    let count = r.count(5)?;
    let mut inputs = Vec::with_capacity(count);
    for _ in 0..count {
        let path = PathBuf::from(r.str()?);
        let stat = if r.flag()? { Some(r.stat()?) } else { None };
        inputs.push(Input { path, stat });
    }
    Some(inputs)
}

fn read_folder(r: &mut Reader<'_>) -> Option<Folder> {
    let rel = CompactString::from(r.str()?);
    let stat = DirStat {
        mtime_secs: r.i64()?,
        mtime_nanos: r.u32()?,
        inode: r.u64()?,
    };
    let racy = r.flag()?;
    let git = r.flag()?;
    // An entry is at least its name's length and two bytes.
    let count = r.count(6)?;
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        let name = CompactString::from(r.str()?);
        let kind = variant::<Kind>(r.u8()?)?;
        let format = match r.u8()? {
            0 => None,
            n => Some(variant::<FormatId>(n - 1)?),
        };
        entries.push((name, kind, format));
    }
    let inputs = read_inputs(r)?;
    let count = r.count(5)?;
    let mut probes = Vec::with_capacity(count);
    for _ in 0..count {
        probes.push((CompactString::from(r.str()?), r.flag()?));
    }
    r.is_done().then_some(Folder {
        rel,
        stat,
        racy,
        entries,
        inputs,
        git,
        probes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Stat;

    fn stat(n: u64) -> Stat {
        Stat {
            len: n,
            mtime_secs: -7,
            mtime_nanos: 9,
            inode: n * 3,
        }
    }

    fn folder(rel: &str, racy: bool) -> Folder {
        Folder {
            rel: rel.into(),
            stat: DirStat {
                mtime_secs: 1_700_000_000,
                mtime_nanos: 123,
                inode: u64::MAX,
            },
            racy,
            entries: vec![
                ("tool.yaml".into(), Kind::File, Some(FormatId::DojopsTool)),
                (
                    "a name longer than twenty-four bytes".into(),
                    Kind::Dir,
                    None,
                ),
                ("l".into(), Kind::Link, Some(FormatId::Config)),
                ("é".into(), Kind::Other, None),
            ],
            inputs: vec![
                Input {
                    path: PathBuf::from("/r/.gitignore"),
                    stat: Some(stat(4)),
                },
                Input {
                    path: PathBuf::from("/r/.ignore"),
                    stat: None,
                },
            ],
            git: !racy,
            probes: vec![("toolc.toml".into(), false), ("x".into(), true)],
        }
    }

    fn walks() -> Kept {
        Kept(vec![
            RootWalk {
                root: PathBuf::from("/r"),
                inputs: vec![Input {
                    path: PathBuf::from("/.gitignore"),
                    stat: Some(stat(1)),
                }],
                folders: vec![folder("", false), folder("a/b", true)],
                by_rel: Default::default(),
            },
            RootWalk {
                root: PathBuf::from("/s"),
                inputs: Vec::new(),
                folders: Vec::new(),
                by_rel: Default::default(),
            },
        ])
    }

    #[test]
    fn walks_read_back_as_they_were_written() {
        let kept = walks();
        let bytes = postcard::to_allocvec(&kept).expect("encodes");
        let back: Kept = postcard::from_bytes(&bytes).expect("decodes");
        assert_eq!(format!("{:?}", back.0), format!("{:?}", kept.0));
    }

    #[cfg(unix)]
    #[test]
    fn a_walk_with_a_path_that_is_not_utf8_is_left_out() {
        use std::os::unix::ffi::OsStrExt;
        let mut kept = walks();
        kept.0[0].folders[1].inputs[0].path =
            PathBuf::from(std::ffi::OsStr::from_bytes(b"/r/\xff/.gitignore"));
        let bytes = postcard::to_allocvec(&kept).expect("encodes");
        let back: Kept = postcard::from_bytes(&bytes).expect("decodes");
        assert_eq!(back.0.len(), 1);
        assert_eq!(back.0[0].root, PathBuf::from("/s"));
    }

    #[test]
    fn damaged_walks_do_not_decode() {
        let bytes = postcard::to_allocvec(&walks()).expect("encodes");
        for len in 0..bytes.len() {
            assert!(
                postcard::from_bytes::<Kept>(&bytes[..len]).is_err(),
                "prefix of {len} bytes"
            );
        }
        // Any byte changed: an error or some walk, never a panic.
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 0xff;
            let _ = postcard::from_bytes::<Kept>(&changed);
        }
    }
}
