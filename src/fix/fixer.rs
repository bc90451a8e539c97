//! The repair run over one input: the codec's [`Repairer`], or with `--mojibake` the mojibake
//! crate's line fixer on top of it, on the threads `-j` gives.

use std::ops::ControlFlow;
use std::sync::{Arc, OnceLock};

use utf8kit_codec::Repairer;
use utf8kit_mojibake::{Helpers, LineRepair, MojibakeRepairer};

use super::Settings;
use super::pool::{Lent, Pool};

/// The helpers of `-j threads`, one pool for the whole run (started when first needed), or
/// none for one thread.
fn helpers(threads: usize) -> Option<Arc<dyn Helpers>> {
    static POOL: OnceLock<Arc<Pool>> = OnceLock::new();
    let pool = POOL.get_or_init(|| Pool::new(threads.saturating_sub(1)));
    (threads > 1).then(|| Arc::new(Lent(Arc::clone(pool))) as Arc<dyn Helpers>)
}

/// The repair of one input.
pub(super) enum Fixer {
    /// The codec's repairs alone: clean text goes through without a copy.
    Plain(Repairer),
    /// The codec's repairs, then mojibake undone line by line.
    Mojibake(MojibakeRepairer),
}

impl Fixer {
    /// The repair `settings` ask for; `counting` writes no output, only counts, and `flags_words`
    /// counts the mixed-script words `--strip` names too (for `--check`: they have nothing to
    /// remove, so a rewrite never looks for them).
    pub(super) fn new(settings: &Settings, counting: bool, flags_words: bool) -> Fixer {
        let mut options = settings.repair.clone();
        if flags_words {
            options.words = Some(crate::mixed_script::RULE);
        }
        match (settings.mojibake, counting) {
            (false, false) => Fixer::Plain(Repairer::new(options)),
            (false, true) => Fixer::Plain(Repairer::counting(options)),
            (true, counting) => {
                let repairer = if counting {
                    MojibakeRepairer::counting(options)
                } else {
                    MojibakeRepairer::new(options)
                };
                match helpers(settings.threads) {
                    Some(helpers) => Fixer::Mojibake(repairer.with_helpers(helpers)),
                    None => Fixer::Mojibake(repairer),
                }
            }
        }
    }

    /// Keeps a log of each repair, drained with [`Fixer::take_log`].
    pub(super) fn with_log(self) -> Fixer {
        match self {
            Fixer::Plain(repairer) => Fixer::Plain(repairer.with_log()),
            Fixer::Mojibake(repairer) => Fixer::Mojibake(repairer.with_log()),
        }
    }

    /// Whether the input is at hand (a regular file), so that lines may be judged ahead of the
    /// output ([`MojibakeRepairer::set_read_ahead`]).
    pub(super) fn set_read_ahead(&mut self, read_ahead: bool) {
        if let Fixer::Mojibake(repairer) = self {
            repairer.set_read_ahead(read_ahead);
        }
    }

    /// Repairs the next chunk into [`Fixer::output`] (counts only, when counting).
    pub(super) fn feed(&mut self, chunk: &[u8], is_last: bool) {
        match self {
            Fixer::Plain(repairer) => repairer.feed(chunk, is_last),
            Fixer::Mojibake(repairer) => repairer.feed(chunk, is_last),
        }
    }

    /// Repairs the next chunk, handing every repaired byte to `emit` in order.
    pub(super) fn feed_to(
        &mut self,
        chunk: &[u8],
        is_last: bool,
        emit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            Fixer::Plain(repairer) => repairer.feed_to(chunk, is_last, emit),
            Fixer::Mojibake(repairer) => repairer.feed_to(chunk, is_last, emit),
        }
    }

    /// Emits what reading ahead still holds back, for an input that failed part-way.
    pub(super) fn flush_read_ahead(
        &mut self,
        emit: &mut dyn FnMut(&[u8]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        match self {
            Fixer::Plain(_) => ControlFlow::Continue(()),
            Fixer::Mojibake(repairer) => repairer.flush_read_ahead(emit),
        }
    }

    /// The repairs logged since the last call, in the order they were made.
    pub(super) fn take_log(&mut self) -> Vec<LineRepair> {
        match self {
            Fixer::Plain(repairer) => repairer
                .take_log()
                .into_iter()
                .map(LineRepair::Codec)
                .collect(),
            Fixer::Mojibake(repairer) => repairer.take_log(),
        }
    }

    /// How many repairs were made.
    pub(super) fn repair_count(&self) -> u64 {
        match self {
            Fixer::Plain(repairer) => repairer.repair_count(),
            Fixer::Mojibake(repairer) => repairer.repair_count(),
        }
    }
}
