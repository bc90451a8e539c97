//! What the scanner reports, and to whom: the vocabulary that the scanner, the lints' context
//! rules and every caller share ([`Finding`], [`FindingKind`], [`Sink`]).

use std::ops::ControlFlow;

use crate::bom::ForeignBom;
use crate::position::Position;
use crate::rules::Lint;
use crate::unit::UnitKind;

/// The kind of a finding: an ill-formed unit, or a character a lint rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum FindingKind {
    /// An ill-formed unit (never [`UnitKind::Char`]).
    IllFormed(UnitKind),
    /// A well-formed character rejected by a lint.
    Lint(Lint),
    /// A UTF-16 or UTF-32 byte order mark at offset 0 (with [`Config::foreign_bom`](crate::Config::foreign_bom)).
    ForeignBom(ForeignBom),
}

impl FindingKind {
    /// The kind's name in output: `overlong`, `bidi`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::IllFormed(kind) => kind.as_str(),
            FindingKind::Lint(lint) => lint.as_str(),
            FindingKind::ForeignBom(bom) => bom.as_str(),
        }
    }
}

impl std::fmt::Display for FindingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: where it is, what it is, its bytes and its code point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding<'a> {
    /// Where the unit starts.
    pub position: Position,
    /// What is wrong with it.
    pub kind: FindingKind,
    /// The unit's bytes (1 to 6).
    pub bytes: &'a [u8],
    /// The code point, where one was decoded (see [`Unit::codepoint`](crate::Unit::codepoint)).
    pub codepoint: Option<u32>,
}

/// Receives what the scanner sees, in input order. Either method may stop the scan by returning
/// `ControlFlow::Break`.
pub trait Sink {
    /// A run of text that is not a finding, starting at `byte_offset`. It is well-formed UTF-8
    /// unless the policy accepts some ill-formed units, and never splits a unit. Runs arrive in
    /// pieces of any size; the default does nothing.
    fn text(&mut self, byte_offset: u64, bytes: &[u8]) -> ControlFlow<()> {
        let _ = (byte_offset, bytes);
        ControlFlow::Continue(())
    }

    /// A finding.
    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()>;
}

/// Any closure over findings is a sink that ignores text.
impl<F: FnMut(&Finding<'_>) -> ControlFlow<()>> Sink for F {
    fn finding(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        self(finding)
    }
}
