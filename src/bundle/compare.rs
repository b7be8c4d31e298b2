//! `build --check`'s comparison of a file on disk with what a build would write there, a
//! buffer at a time: neither is held whole (a bundle of many tools is larger than any file
//! toolc reads whole).

use std::io::{BufReader, BufWriter, Read, Write};

/// How many bytes are compared at once.
const COMPARED: usize = 64 * 1024;

/// A writer that tells whether `file` holds exactly what was written to it: not at the first
/// byte that differs (the write fails there), when the file ends first, or when it goes on
/// after.
pub(super) struct Holds(BufWriter<Compare>);

impl Holds {
    /// Compare what is written with `file`.
    pub(super) fn new(file: std::fs::File) -> Holds {
        Holds(BufWriter::with_capacity(
            COMPARED,
            Compare {
                file: BufReader::with_capacity(COMPARED, file),
                scratch: vec![0; COMPARED],
            },
        ))
    }

    /// True when everything written was the file, and the file ends there.
    pub(super) fn held_whole(self) -> bool {
        match self.0.into_inner() {
            Ok(mut c) => matches!(c.file.read(&mut c.scratch[..1]), Ok(0)),
            Err(_) => false,
        }
    }
}

impl Write for Holds {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.write(data)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// A writer that reads as many bytes from `file` as it is given, and fails at the first
/// that differs (or where the file ends first).
struct Compare {
    file: BufReader<std::fs::File>,
    scratch: Vec<u8>,
}

impl Write for Compare {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let n = data.len().min(self.scratch.len());
        let read = &mut self.scratch[..n];
        self.file.read_exact(read)?;
        if data[..n] != *read {
            return Err(std::io::Error::other("differs"));
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same bytes compare equal, however they are written and however long; a changed
    /// byte, a file cut short or one that goes on do not.
    #[test]
    fn a_file_holds_exactly_what_is_written() {
        let dir = std::env::temp_dir().join(format!("toolc-compare-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let content: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let holds_after = |on_disk: &[u8]| {
            let path = dir.join("f");
            std::fs::write(&path, on_disk).expect("written");
            let file = std::fs::File::open(&path).expect("opened");
            let mut holds = Holds::new(file);
            // In pieces of uneven sizes, across the buffer's edges.
            let written = content.chunks(7_001).try_for_each(|p| holds.write_all(p));
            written.is_ok() && holds.held_whole()
        };
        assert!(holds_after(&content));
        let mut changed = content.clone();
        changed[150_000] ^= 1;
        assert!(!holds_after(&changed));
        assert!(!holds_after(&content[..content.len() - 1]));
        let mut longer = content.clone();
        longer.push(b'\n');
        assert!(!holds_after(&longer));
        assert!(!holds_after(b""));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
