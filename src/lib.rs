//! The four utf8kit programs as a library: their command lines, their logic, and the plumbing
//! they share.
//!
//! Each program has one module holding its clap definition and its `run` function
//! ([`check`], [`dump`], [`enc`], [`fix`]); the binaries in `src/bin/` only parse, call `run` and turn the [`Status`] into an
//! exit code. The shared plumbing sits below them: [`input`] (files, memory maps, standard input),
//! [`output`] (buffered stdout, colour, broken pipes, messages), [`report`] (finding formats),
//! [`cli`] (options every program takes) and [`status`] (grep's exit codes). All UTF-8 knowledge
//! lives in the codec crate, `utf8kit_codec`.
//!
//! ```
//! use utf8kit::status::Status;
//! assert_eq!(Status::Problems.merge(Status::Clean), Status::Problems);
//! ```

#![deny(missing_docs)]

pub mod check;
pub mod cli;
pub mod detect;
pub mod dump;
pub mod enc;
pub mod encodings;
pub mod fix;
pub mod generate;
pub mod hint;
pub mod input;
pub mod mixed_script;
pub mod names;
pub mod output;
pub mod render;
pub mod replace;
pub mod report;
pub mod status;
pub mod walk;

pub use status::Status;
