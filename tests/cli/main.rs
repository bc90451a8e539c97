//! Integration tests: the programs as a user runs them. One module per program.

mod bench;
mod check;
mod common;
mod dump;
mod enc;
mod file_names;
mod fix;
mod habits;
mod hidden;
mod hostile;
mod in_place;
mod legacy;
mod levels;
mod mixed_script;
mod mojibake;
mod names;
mod readme;
mod workspace;
