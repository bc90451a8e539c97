//! `utf8check` as a user runs it: one file of basics (formats, status, streams) and one of the
//! options a team uses over a whole repository.

mod basics;
mod gate;
mod repository;
