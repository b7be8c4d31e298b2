//! The fixable defects of agentcli `tools.json` manifests.

use super::*;

pub(super) fn cases() -> Vec<Case> {
    vec![
        // agentcli
        case(
            "ACL008",
            "tools.json",
            vec![
                (
                    "tools.json",
                    edit(
                        AGENTCLI,
                        "\"timeoutSec\": 5",
                        "\"timeoutSec\": 5,\n      \"envPassthrough\": [\"HTTP-TIMEOUT\"]",
                    ),
                ),
                ("tools/bin/get_time", "#!/bin/sh\n".to_string()),
            ],
        ),
        case(
            "ACL010",
            "tools.json",
            vec![
                (
                    "tools.json",
                    edit(AGENTCLI, "\"timeoutSec\"", "\"timeoutSecs\""),
                ),
                ("tools/bin/get_time", "#!/bin/sh\n".to_string()),
            ],
        ),
    ]
}
