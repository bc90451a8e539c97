//! The codec's tests against its oracles, as one program, so that the test threads share the
//! long exhaustive tests with the rest instead of each file running alone.

mod blocks;
mod oracle;
mod properties;
mod widen;
