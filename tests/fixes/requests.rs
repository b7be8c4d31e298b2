//! The fixable defects of tool requests.

use super::*;

/// A valid tool request written for the tests (see tests/fixtures/tool-request/valid/).
const REQUEST: &str =
    include_str!("../fixtures/tool-request/valid/requests/TR-20250131-140500Z-sales-summary.md");
const REQUEST_PATH: &str = "requests/TR-20250131-140500Z-sales-summary.md";

pub(super) fn cases() -> Vec<Case> {
    vec![
        case(
            "TRQ024",
            REQUEST_PATH,
            vec![(REQUEST_PATH, edit(REQUEST, "cpu_limit:", "cpu_limt:"))],
        ),
        case(
            "TRQ001",
            REQUEST_PATH,
            vec![(REQUEST_PATH, edit(REQUEST, "purpose:", "purpse:"))],
        ),
    ]
}
