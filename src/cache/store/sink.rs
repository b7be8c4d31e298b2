//! The writer's way into the cache file: bytes hashed as they are written, directly or as a
//! postcard flavor (the index of a large repository is tens of megabytes, never held whole).

use std::fs::File;
use std::io::{BufWriter, Write};

use super::super::hash::Checker;

/// Bytes on their way into the cache file, hashed as they go.
pub struct Sink<'a> {
    /// The cache file.
    pub out: &'a mut BufWriter<File>,
    /// The check of every byte written.
    pub hash: Checker,
    /// Bytes not written yet (written when full: give it a capacity).
    pub buf: Vec<u8>,
    /// Bytes written so far.
    pub len: u64,
    /// False once a write failed.
    pub ok: bool,
}

impl Sink<'_> {
    fn flush(&mut self) {
        self.hash.update(&self.buf);
        self.ok &= self.out.write_all(&self.buf).is_ok();
        self.len += self.buf.len() as u64;
        self.buf.clear();
    }

    /// Write `data` (through the buffer, or straight on when it is longer).
    pub fn put(&mut self, data: &[u8]) {
        if self.buf.len() + data.len() > self.buf.capacity() {
            self.flush();
        }
        if data.len() > self.buf.capacity() {
            self.hash.update(data);
            self.ok &= self.out.write_all(data).is_ok();
            self.len += data.len() as u64;
        } else {
            self.buf.extend_from_slice(data);
        }
    }

    /// Everything given is written.
    pub fn flushed(mut self) -> Self {
        self.flush();
        self
    }
}

// A flavor of its own: postcard gives a flavor whole slices, an `Extend` one byte at a time
// (the index of a large repository is tens of megabytes).
impl<'a> postcard::ser_flavors::Flavor for Sink<'a> {
    type Output = Sink<'a>;

    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.put(data);
        Ok(())
    }

    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        if self.buf.len() == self.buf.capacity() {
            self.flush();
        }
        self.buf.push(data);
        Ok(())
    }

    fn finalize(self) -> postcard::Result<Sink<'a>> {
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::hash;

    #[test]
    fn what_goes_through_is_written_and_checked_as_postcard_would_encode_it() {
        let dir = std::env::temp_dir().join(format!("toolc-sink-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let path = dir.join("out");
        // Runs longer and shorter than the buffer, and single bytes between them.
        let value = (
            7u8,
            vec![3u8; 200_000],
            "name".to_string(),
            vec![1u8; 10],
            300u32,
        );
        let mut out = BufWriter::new(File::create(&path).expect("create"));
        let sink = Sink {
            out: &mut out,
            hash: Checker::default(),
            buf: Vec::with_capacity(64 * 1024),
            len: 0,
            ok: true,
        };
        let sink = postcard::serialize_with_flavor(&value, sink)
            .expect("encodes")
            .flushed();
        let (len, ok, check) = (sink.len, sink.ok, sink.hash.finish());
        out.flush().expect("flush");
        drop(out);
        let expected = postcard::to_allocvec(&value).expect("encodes");
        let written = std::fs::read(&path).expect("read back");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(ok);
        assert_eq!(len, expected.len() as u64);
        assert_eq!(written, expected);
        assert_eq!(check, hash::check(&expected));
    }
}
