//! Reference graphs: the cycles of a directed graph, for skills that depend on each other
//! and tools that call each other.

use std::collections::HashSet;

/// One edge taken around a cycle: the `edge`-th outgoing edge of `node`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    /// The node the edge leaves.
    pub node: usize,
    /// Its position in that node's edge list.
    pub edge: usize,
}

/// A cycle: each step's edge leads to the next step's node, and the last step's edge (the
/// one that closed the cycle) leads back to the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cycle {
    /// The steps, in walk order.
    pub steps: Vec<Step>,
}

impl Cycle {
    /// The edge that closed the cycle, where a diagnostic points.
    pub(crate) fn closing(&self) -> Option<Step> {
        self.steps.last().copied()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    New,
    OnPath,
    Done,
}

/// How many steps the cycles given whole may hold in all: past it, a cycle is only counted
/// (its closing step kept), so a graph of long cycles costs what its edges do.
pub(crate) const MAX_CYCLE_STEPS: usize = 100_000;

/// The cycles of a graph: those given whole, and the closing steps of those past
/// [`MAX_CYCLE_STEPS`].
#[derive(Debug, Default)]
pub(crate) struct Cycles {
    /// Cycles with every step.
    pub whole: Vec<Cycle>,
    /// The closing steps of the cycles only counted.
    pub counted: Vec<Step>,
}

/// Every cycle a depth-first walk closes, once each, in a deterministic order (nodes in
/// index order, edges in list order). `edges[n]` lists the targets of node `n`; targets
/// out of range are ignored, and so is an edge to a target its node already named (it closes
/// no cycle the first did not). The walk is iterative, so a long chain cannot overflow the
/// stack.
pub(crate) fn cycles(edges: &[Vec<usize>]) -> Cycles {
    let n = edges.len();
    let mut visit = vec![Visit::New; n];
    let mut depth = vec![0usize; n];
    let mut taken_pairs: HashSet<(usize, usize)> = HashSet::new();
    // The path: each node and how many of its edges have been followed.
    let mut path: Vec<Step> = Vec::new();
    let mut out = Cycles::default();
    let mut budget = MAX_CYCLE_STEPS;
    for start in 0..n {
        if visit[start] != Visit::New {
            continue;
        }
        visit[start] = Visit::OnPath;
        path.push(Step {
            node: start,
            edge: 0,
        });
        while let Some(top) = path.last_mut() {
            let from = top.node;
            let Some(&to) = edges[from].get(top.edge) else {
                visit[from] = Visit::Done;
                path.pop();
                continue;
            };
            let taken = top.edge;
            top.edge += 1;
            if !taken_pairs.insert((from, to)) {
                continue;
            }
            match visit.get(to) {
                Some(Visit::New) => {
                    visit[to] = Visit::OnPath;
                    depth[to] = path.len();
                    path.push(Step { node: to, edge: 0 });
                }
                Some(Visit::OnPath) => {
                    let closing = Step {
                        node: from,
                        edge: taken,
                    };
                    let length = path.len() - depth[to];
                    if length > budget {
                        out.counted.push(closing);
                        continue;
                    }
                    budget -= length;
                    // Frames on the path hold the *next* edge to follow: the one taken is
                    // just before it.
                    let mut steps: Vec<Step> = path[depth[to]..]
                        .iter()
                        .map(|s| Step {
                            node: s.node,
                            edge: s.edge.saturating_sub(1),
                        })
                        .collect();
                    if let Some(last) = steps.last_mut() {
                        *last = closing;
                    }
                    out.whole.push(Cycle { steps });
                }
                Some(Visit::Done) | None => {}
            }
        }
    }
    out
}

/// `a → b → c`: the names of a cycle's chain, the first and last few of a long one with how
/// many stand between them.
pub(crate) fn chain(names: &[String]) -> String {
    const ENDS: usize = 6;
    if names.len() <= 2 * ENDS + 1 {
        return names.join(" → ");
    }
    let (head, tail) = (&names[..ENDS], &names[names.len() - ENDS..]);
    format!(
        "{} → … ({} more) → {}",
        head.join(" → "),
        names.len() - 2 * ENDS,
        tail.join(" → ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes(c: &Cycle) -> Vec<usize> {
        c.steps.iter().map(|s| s.node).collect()
    }

    #[test]
    fn finds_self_loops_and_longer_cycles_once() {
        // 0 → 1 → 2 → 0, 3 → 3, 4 → 0 (leads into a cycle but is not on one).
        let edges = vec![vec![1], vec![2], vec![0], vec![3], vec![0]];
        let found = cycles(&edges).whole;
        assert_eq!(found.len(), 2);
        assert_eq!(nodes(&found[0]), [0, 1, 2]);
        assert_eq!(found[0].closing(), Some(Step { node: 2, edge: 0 }));
        assert_eq!(nodes(&found[1]), [3]);
    }

    #[test]
    fn steps_name_the_edge_taken() {
        // 0 has a dead edge first; the cycle leaves 0 by its second edge.
        let edges = vec![vec![2, 1], vec![0], vec![]];
        let found = cycles(&edges).whole;
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].steps,
            [Step { node: 0, edge: 1 }, Step { node: 1, edge: 0 }]
        );
    }

    #[test]
    fn acyclic_graphs_and_bad_targets_give_nothing() {
        assert!(
            cycles(&[vec![1, 2], vec![2], vec![], vec![99]])
                .whole
                .is_empty()
        );
        let chain: Vec<Vec<usize>> = (0..100_000).map(|i| vec![i + 1]).collect();
        let found = cycles(&chain);
        assert!(found.whole.is_empty() && found.counted.is_empty());
    }

    /// A node naming one target many times closes one cycle; past the budget of steps a
    /// cycle is counted by its closing step, and the walk stays linear in the edges.
    #[test]
    fn repeated_edges_close_one_cycle_and_long_cycles_are_counted() {
        let edges = vec![vec![1], vec![0; 100_000]];
        let found = cycles(&edges);
        assert_eq!(found.whole.len(), 1);
        assert!(found.counted.is_empty());
        // A chain whose last node names each of its first 10: every cycle is longer than the
        // budget itself.
        let n = MAX_CYCLE_STEPS + 20;
        let mut chain: Vec<Vec<usize>> = (0..n).map(|i| vec![i + 1]).collect();
        chain.push((0..10).collect());
        let found = cycles(&chain);
        assert!(found.whole.is_empty());
        assert_eq!(found.counted.len(), 10);
        assert_eq!(found.counted[0], Step { node: n, edge: 0 });
    }

    #[test]
    fn a_long_chain_is_shown_by_its_ends() {
        let names: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
        assert_eq!(chain(&names[..3]), "t0 → t1 → t2");
        assert_eq!(
            chain(&names),
            "t0 → t1 → t2 → t3 → t4 → t5 → … (8 more) → t14 → t15 → t16 → t17 → t18 → t19"
        );
    }
}
