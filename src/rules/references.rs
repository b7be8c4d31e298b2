//! `REF` rules: references between files.

use super::declare_rules;

declare_rules! {
    UNKNOWN_DEPENDENCY = "REF001" "unknown-dependency" Error ["dojops-dops"] "a skill depends on a skill the project does not define";
    DEPENDENCY_CYCLE = "REF002" "dependency-cycle" Error ["dojops-dops"] "skills depend on each other in a cycle";
}
