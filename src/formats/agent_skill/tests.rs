//! Unit tests of the skill checks that need no folder on disk.
