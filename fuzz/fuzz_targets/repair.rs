//! Repair: the default equals String::from_utf8_lossy; every option gives well-formed output
//! that repairing again leaves as it is, whatever the chunk splits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utf8kit_codec::{Lint, LintSet, RepairOptions, Repairer, Replacement, repair::latin1_table};
use std::sync::Arc;

use utf8kit_mojibake::{Helpers, MojibakeRepairer, Work};

/// How a repair is run: the codec's alone, or with mojibake undone on this many threads.
#[derive(Clone, Copy)]
enum Mojibake {
    No,
    Threads(usize),
}

/// Helpers for `threads` threads in all, the mojibake crate's own for its tests.
#[path = "../../crates/mojibake/src/testing.rs"]
mod testing;

fn lent(threads: usize) -> Option<Arc<dyn Helpers>> {
    testing::ThreadPerWork::lent(threads)
}

fn repair(data: &[u8], options: &RepairOptions, mojibake: Mojibake, cut: usize) -> Vec<u8> {
    repair_ahead(data, options, mojibake, cut, false)
}

/// `data` repaired in two chunks cut at `cut`, reading ahead or not.
fn repair_ahead(
    data: &[u8],
    options: &RepairOptions,
    mojibake: Mojibake,
    cut: usize,
    read_ahead: bool,
) -> Vec<u8> {
    let cut = cut.min(data.len());
    let Mojibake::Threads(threads) = mojibake else {
        let mut repairer = Repairer::new(options.clone());
        repairer.feed(&data[..cut], false);
        let mut out = std::mem::take(repairer.output());
        repairer.feed(&data[cut..], true);
        out.append(repairer.output());
        return out;
    };
    let mut repairer = MojibakeRepairer::new(options.clone());
    if let Some(helpers) = lent(threads) {
        repairer = repairer.with_helpers(helpers);
    }
    repairer.set_read_ahead(read_ahead);
    repairer.feed(&data[..cut], false);
    let mut out = std::mem::take(repairer.output());
    repairer.feed(&data[cut..], true);
    out.append(repairer.output());
    out
}

fuzz_target!(|input: &[u8]| {
    let Some((&control, data)) = input.split_first() else {
        return;
    };
    let replacement = match control % 5 {
        0 => Replacement::default(),
        1 => Replacement::Text("?".into()),
        2 => Replacement::Drop,
        3 => Replacement::Escape,
        _ => Replacement::Fallback(latin1_table()),
    };
    let options = RepairOptions {
        replacement,
        cesu: control & 0x08 != 0,
        modified: control & 0x10 != 0,
        strip_bom: control & 0x20 != 0,
        // What utf8fix --strip removes: every lint at once, or none.
        strip: if control & 0x80 != 0 {
            LintSet::ALL.without(LintSet::NONE.with(Lint::Bom))
        } else {
            LintSet::NONE
        },
        words: None,
    };
    let mojibake = if control & 0x40 != 0 {
        // One thread or several: the output must not depend on it.
        Mojibake::Threads(1 + data.len() % 3)
    } else {
        Mojibake::No
    };
    let whole = repair(data, &options, mojibake, data.len());
    assert!(std::str::from_utf8(&whole).is_ok(), "well-formed output");
    assert_eq!(
        repair(&whole, &options, mojibake, whole.len()),
        whole,
        "idempotent"
    );
    assert_eq!(
        repair(data, &options, mojibake, data.len() / 2),
        whole,
        "chunk splits change nothing"
    );
    // Reading ahead changes when the output comes, never what it is.
    let cut = data.len() / 3;
    assert_eq!(
        repair_ahead(data, &options, mojibake, cut, true),
        repair(data, &options, mojibake, cut),
        "reading ahead changes nothing"
    );
    if options == RepairOptions::default() && matches!(mojibake, Mojibake::No) {
        assert_eq!(whole, String::from_utf8_lossy(data).as_bytes());
    }
});
