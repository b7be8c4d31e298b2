//! Reading values out of a syntax tree by key path: what a format's lowering into its typed
//! fields uses (the IR lowering reads those fields, never the tree).

use crate::syntax::Node;

/// The string at `path` under `node`.
pub(crate) fn str_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n str> {
    node_at(node, path).and_then(Node::as_str)
}

/// The node at `path` under `node`.
pub(crate) fn node_at<'n>(node: &'n Node, path: &[&str]) -> Option<&'n Node> {
    path.iter().try_fold(node, |n, key| n.value(key))
}

/// The strings of a sequence (other items skipped); empty when `node` is not a sequence.
pub(crate) fn strings(node: Option<&Node>) -> Vec<String> {
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

/// Where the value at `path` under `node` is written, for pointing at it: a scalar's own
/// bytes, or the key of a mapping or list (whose value spans many lines).
pub(crate) fn site_at(node: &Node, path: &[&str]) -> Option<crate::source::Span> {
    let (last, parents) = path.split_last()?;
    let entry = node_at(node, parents)?.get(last)?;
    Some(match entry.value.kind {
        crate::syntax::NodeKind::Map(_) | crate::syntax::NodeKind::Seq(_) => entry.key_span(),
        _ => entry.value.span(),
    })
}

/// The first of `paths` that is written under `node`, as [`site_at`] points at it.
pub(crate) fn first_site(node: &Node, paths: &[&[&str]]) -> Option<crate::source::Span> {
    paths.iter().find_map(|p| site_at(node, p))
}

/// The run settings `keys` of `node` into `out` under `prefix` (`steps/0/`), each as compact
/// JSON with sorted keys; the values of `hashed` keys (an environment, which may hold
/// secrets) are kept only as a short hash of each value.
pub(crate) fn settings(
    node: &Node,
    keys: &[&str],
    hashed: &[&str],
    prefix: &str,
    out: &mut crate::ir::Settings,
) {
    for key in keys {
        let Some(value) = node.value(key) else {
            continue;
        };
        let mut json = sorted(value.to_json());
        if hashed.contains(key)
            && let serde_json::Value::Object(map) = &mut json
        {
            for v in map.values_mut() {
                let digest = crate::text::sha256_hex(v.to_string().as_bytes());
                *v = serde_json::Value::String(format!("sha256:{}", &digest[..16]));
            }
        }
        out.insert(format!("{prefix}{key}"), json.to_string());
    }
}

/// `value` with the keys of every object in sorted order.
fn sorted(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<(String, serde_json::Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.into_iter().map(sorted).collect())
        }
        other => other,
    }
}
