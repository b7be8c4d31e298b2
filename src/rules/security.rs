//! `SEC` rules: definitions that let a tool touch more than its author meant.

use super::declare_rules;

declare_rules! {
    PATH_TRAVERSAL = "SEC001" "path-traversal" Error ["dojops-tool", "dojops-dops"] "a path has a `..` segment that can escape the project";
    UNCHECKED_COMMAND_CHAINING = "SEC002" "unchecked-command-chaining" Warning ["dojops-tool"] "a verification command chains further commands the whitelist never checks";
}
