//! What the JSONPath engine may cost on a document of `n` nodes, worked out from the path's
//! text before it runs: the engine builds the whole list of nodes of each segment before
//! the next one, so `$..*..[0:1]` over 150 nested lists is billions of entries. A path the
//! walk takes has a budget instead ([`super::budget`]); one left to the engine (filters,
//! slices, unions) runs only when this estimate fits in what the rule may still read.
//!
//! The estimate bounds the entries the engine makes and the candidates its selectors look
//! at: a descendant segment (`..`) looks at every node below each node of its list, a
//! wildcard, slice or filter at every child, and a filter runs its own queries (`@..x`,
//! `$.a`) on each candidate. A list known to hold distinct nodes none of which is below
//! another (what `$.a.*` selects) has at most `n` entries, and their children are at most
//! `n`: the estimate of a path that reads each node once is a small multiple of `n`, and one
//! that reads nodes over and over (`..*..*`, `[*,*][*,*]`) grows as it does.
//!
//! The text is one the engine parsed (RFC 9535), read without building anything; an
//! unexpected byte is stepped over, so the scan always ends.

/// A selector, as far as cost goes.
enum Sel {
    /// A name or an index: one child at most.
    One,
    /// A wildcard, slice or filter: every child is a candidate, each costing this much.
    Many(u64),
}

/// The list of nodes a query has built so far.
#[derive(Clone, Copy)]
struct List {
    /// Entries, at most.
    len: u64,
    /// No node twice, and none below another.
    antichain: bool,
    /// No node twice.
    distinct: bool,
}

struct Scan<'t> {
    text: &'t [u8],
    at: usize,
    n: u64,
}

/// True when `path` reads nodes over and over: its estimate grows faster than the document
/// (`$..*..*`, about four times the cost for twice the nodes), where one that reads each
/// node once grows as it does (`$..*`, twice).
pub(crate) fn rereads(path: &str) -> bool {
    const N: u64 = 64;
    let once = estimate(path, N);
    once == u64::MAX || estimate(path, 2 * N) > 3 * once
}

/// The estimated cost of running `path` (as written, already parsed by the engine) on a
/// document of `n` nodes.
pub(crate) fn estimate(path: &str, n: u64) -> u64 {
    let mut scan = Scan {
        text: path.as_bytes(),
        at: 0,
        n: n.max(1),
    };
    scan.blanks();
    if scan.peek() == Some(b'$') {
        scan.at += 1;
    }
    scan.query()
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn eat(&mut self, s: &[u8]) -> bool {
        let found = self.text.get(self.at..).is_some_and(|t| t.starts_with(s));
        if found {
            self.at += s.len();
        }
        found
    }

    fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// A name written as shorthand (`.name`): letters, digits, `_`, non-ASCII bytes.
    fn shorthand(&mut self) {
        while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
        {
            self.at += 1;
        }
    }

    /// A string literal, from its opening quote to after its closing one.
    fn string(&mut self) {
        let Some(quote) = self.peek() else {
            return;
        };
        self.at += 1;
        while let Some(b) = self.peek() {
            self.at += 1;
            if b == b'\\' {
                self.at += 1;
            } else if b == quote {
                return;
            }
        }
    }

    /// The segments after `$` or `@`: their cost, the entries of the last list included.
    fn query(&mut self) -> u64 {
        let mut list = List {
            len: 1,
            antichain: true,
            distinct: true,
        };
        let mut work: u64 = 1;
        loop {
            let before = self.at;
            self.blanks();
            let descendant = if self.eat(b"..") {
                true
            } else if matches!(self.peek(), Some(b'.' | b'[')) {
                false
            } else {
                self.at = before;
                break;
            };
            let sels = self.segment(descendant);
            if self.at == before {
                break;
            }
            let (cost, next) = self.apply(list, descendant, &sels);
            work = work.saturating_add(cost);
            list = next;
        }
        work.saturating_add(list.len)
    }

    /// The selectors of one segment: after `..`, or at its `.` or `[`.
    fn segment(&mut self, descendant: bool) -> Vec<Sel> {
        if !descendant && !self.eat(b".") {
            if self.eat(b"[") {
                return self.bracket();
            }
            return Vec::new();
        }
        if self.eat(b"*") {
            return vec![Sel::Many(1)];
        }
        if descendant && self.eat(b"[") {
            return self.bracket();
        }
        self.shorthand();
        vec![Sel::One]
    }

    /// The selectors between `[` and `]`, the `]` read.
    fn bracket(&mut self) -> Vec<Sel> {
        let mut sels = Vec::new();
        loop {
            self.blanks();
            let start = self.at;
            match self.peek() {
                None => break,
                Some(b']') => {
                    self.at += 1;
                    break;
                }
                Some(b',') => self.at += 1,
                Some(b'\'' | b'"') => {
                    self.string();
                    sels.push(Sel::One);
                }
                Some(b'*') => {
                    self.at += 1;
                    sels.push(Sel::Many(1));
                }
                Some(b'?') => {
                    self.at += 1;
                    let inner = self.filter();
                    sels.push(Sel::Many(inner.saturating_add(1)));
                }
                Some(_) => {
                    // An index, or a slice (`1:5:2`, `::-1`).
                    let mut slice = false;
                    while let Some(b) = self.peek() {
                        if matches!(b, b',' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                            break;
                        }
                        slice |= b == b':';
                        self.at += 1;
                    }
                    sels.push(if slice { Sel::Many(1) } else { Sel::One });
                }
            }
            if self.at == start {
                self.at += 1;
            }
        }
        sels
    }

    /// A filter's expression, up to the `,` or `]` that ends it: the cost of its queries
    /// on one candidate.
    fn filter(&mut self) -> u64 {
        let mut cost: u64 = 0;
        let mut depth = 0usize;
        while let Some(b) = self.peek() {
            match b {
                b'\'' | b'"' => self.string(),
                b'@' | b'$' => {
                    self.at += 1;
                    cost = cost.saturating_add(self.query());
                }
                b'(' => {
                    depth += 1;
                    self.at += 1;
                }
                b')' => {
                    depth = depth.saturating_sub(1);
                    self.at += 1;
                }
                b',' | b']' if depth == 0 => break,
                _ => self.at += 1,
            }
        }
        cost
    }

    /// The cost of a segment of `sels` on `list`, and the list it makes.
    fn apply(&self, list: List, descendant: bool, sels: &[Sel]) -> (u64, List) {
        let n = self.n;
        // The nodes the selectors are applied to: each node of the list, or each node of
        // the list and every node below it.
        let (visited, visited_distinct) = if descendant {
            let v = if list.antichain {
                n
            } else {
                list.len.saturating_mul(n)
            };
            (v, list.antichain)
        } else {
            (list.len, list.distinct)
        };
        // Children of distinct nodes are distinct: `n` at most.
        let candidates = if visited_distinct {
            n
        } else {
            visited.saturating_mul(n)
        };
        let mut work = visited;
        let mut len: u64 = 0;
        for sel in sels {
            match sel {
                Sel::One => {
                    work = work.saturating_add(visited);
                    len = len.saturating_add(visited);
                }
                Sel::Many(each) => {
                    work = work.saturating_add(candidates.saturating_mul(*each));
                    len = len.saturating_add(candidates);
                }
            }
        }
        let single = sels.len() == 1;
        if visited_distinct && single {
            len = len.min(n);
        }
        let next = List {
            len,
            antichain: !descendant && list.antichain && single,
            distinct: visited_distinct && single,
        };
        (work, next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_read_each_node_once_cost_a_few_times_the_document() {
        let n = 10_000;
        for path in [
            "$",
            "$.a.b",
            "$..[0:2]",
            "$[?@.type == 'string']",
            "$.parameters.properties[?@.type == 'string']",
            "$.tools[*].name",
            "$['a','b']",
            "$ .name",
            "$..[?@.x]",
            "$[?length(@.name) > 3 && match(@.name, '[a-z]+')]",
            "$.a[?@.b == \"x]'..*\"].c",
        ] {
            let cost = estimate(path, n);
            assert!(cost <= 20 * n, "{path}: {cost}");
            assert!(!rereads(path), "{path}");
        }
    }

    #[test]
    fn paths_that_read_nodes_over_and_over_cost_more() {
        let n = 150;
        // What the walk would take, as the engine reads it: n³ and more.
        assert!(estimate("$..*..*..[0:1]", n) >= n.pow(4));
        for path in [
            "$..*..*",
            "$..*..*..[0:1]",
            "$..[?@..x]",
            "$.a..*..description",
        ] {
            assert!(rereads(path), "{path}");
        }
        // A union repeats its nodes: each segment multiplies.
        let unions = "$[*,*,*,*][*,*,*,*][*,*,*,*][*,*,*,*]";
        assert!(estimate(unions, n) >= 4u64.pow(4) * n);
        // A filter runs its queries on every candidate.
        assert!(estimate("$..[?@..x]", n) >= n * n);
        assert!(estimate("$..[?$..*..*]", n) >= n.pow(3));
        // Nested without end: saturates, never overflows.
        let deep = format!("${}", "..[?@..*]".repeat(40));
        assert_eq!(estimate(&deep, n), u64::MAX);
    }

    #[test]
    fn any_text_ends() {
        for text in [
            "",
            "$[",
            "$..",
            "$[?(@",
            "$['",
            "$[?@.a == '\\",
            "x",
            "$.a)",
        ] {
            let _ = estimate(text, 100);
        }
    }
}
