//! The paths of a list's items, written into one buffer.

use std::fmt::Write as _;

/// `list[0]`, `list[1]`, … for the items of one list: the list's path is written once, when
/// the first item's is asked for, and each item's index after it, so a list of millions of
/// items (or millions of lists of none) formats no string per item (a fifth of the time of a
/// 60 MB `server.json` of empty arguments went to those strings).
#[derive(Debug)]
pub(crate) struct ItemPaths<'a> {
    parent: &'a str,
    key: &'a str,
    buf: String,
    base: usize,
}

impl<'a> ItemPaths<'a> {
    /// The paths of the items of the list at `list`.
    pub(crate) fn new(list: &'a str) -> Self {
        Self::of(list, "")
    }

    /// The paths of the items of the list at `key` of the mapping at `parent`.
    pub(crate) fn of(parent: &'a str, key: &'a str) -> Self {
        ItemPaths {
            parent,
            key,
            buf: String::new(),
            base: 0,
        }
    }

    /// The path of item `index`.
    pub(crate) fn at(&mut self, index: usize) -> &str {
        if self.base == 0 {
            self.buf.push_str(self.parent);
            if !self.parent.is_empty() && !self.key.is_empty() {
                self.buf.push('.');
            }
            self.buf.push_str(self.key);
            self.buf.push('[');
            self.base = self.buf.len();
        }
        self.buf.truncate(self.base);
        // Writing into a `String` cannot fail.
        let _ = write!(self.buf, "{index}]");
        &self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::ItemPaths;

    #[test]
    fn each_item_s_path_replaces_the_last_one_s_index() {
        let mut paths = ItemPaths::of("packages[0]", "packageArguments");
        assert_eq!(paths.at(12), "packages[0].packageArguments[12]");
        assert_eq!(paths.at(3), "packages[0].packageArguments[3]");
        assert_eq!(ItemPaths::of("", "remotes").at(0), "remotes[0]");
        assert_eq!(ItemPaths::new("tools.refs").at(7), "tools.refs[7]");
    }
}
