//! Reference graphs: the cycles of a directed graph, for skills that depend on each other
//! and tools that call each other.

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

/// Every cycle a depth-first walk closes, once each, in a deterministic order (nodes in
/// index order, edges in list order). `edges[n]` lists the targets of node `n`; targets
/// out of range are ignored. The walk is iterative, so a long chain cannot overflow the
/// stack.
pub(crate) fn cycles(edges: &[Vec<usize>]) -> Vec<Cycle> {
    let n = edges.len();
    let mut visit = vec![Visit::New; n];
    let mut depth = vec![0usize; n];
    // The path: each node and how many of its edges have been followed.
    let mut path: Vec<Step> = Vec::new();
    let mut out = Vec::new();
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
            match visit.get(to) {
                Some(Visit::New) => {
                    visit[to] = Visit::OnPath;
                    depth[to] = path.len();
                    path.push(Step { node: to, edge: 0 });
                }
                Some(Visit::OnPath) => {
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
                        last.edge = taken;
                    }
                    out.push(Cycle { steps });
                }
                Some(Visit::Done) | None => {}
            }
        }
    }
    out
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
        let found = cycles(&edges);
        assert_eq!(found.len(), 2);
        assert_eq!(nodes(&found[0]), [0, 1, 2]);
        assert_eq!(found[0].closing(), Some(Step { node: 2, edge: 0 }));
        assert_eq!(nodes(&found[1]), [3]);
    }

    #[test]
    fn steps_name_the_edge_taken() {
        // 0 has a dead edge first; the cycle leaves 0 by its second edge.
        let edges = vec![vec![2, 1], vec![0], vec![]];
        let found = cycles(&edges);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].steps,
            [Step { node: 0, edge: 1 }, Step { node: 1, edge: 0 }]
        );
    }

    #[test]
    fn acyclic_graphs_and_bad_targets_give_nothing() {
        assert!(cycles(&[vec![1, 2], vec![2], vec![], vec![99]]).is_empty());
        let chain: Vec<Vec<usize>> = (0..100_000).map(|i| vec![i + 1]).collect();
        assert!(cycles(&chain).is_empty());
    }
}
