//! Reading values out of a syntax tree by key path: what a format's lowering into its typed
//! fields uses (the IR lowering reads those fields, never the tree).

use crate::syntax::Node;

/// The string at `path` under `node`.
pub fn str_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n str> {
    node_at(node, path).and_then(Node::as_str)
}

/// The node at `path` under `node`.
pub fn node_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n Node> {
    path.iter().try_fold(node, |n, key| n.value(key))
}

/// The strings of a sequence (other items skipped); empty when `node` is not a sequence.
pub fn strings(node: Option<&Node>) -> Vec<String> {
    node.and_then(Node::as_seq)
        .map(|items| {
            items
                .iter()
                .filter_map(Node::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
