//! Repair: the default equals String::from_utf8_lossy; every option gives well-formed output
//! that repairing again leaves as it is, whatever the chunk splits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use utf8kit_codec::{latin1_table, Lint, LintSet, RepairOptions, Repairer, Replacement};

fn repair(data: &[u8], options: &RepairOptions, cut: usize) -> Vec<u8> {
    repair_ahead(data, options, cut, false)
}

/// `data` repaired in two chunks cut at `cut`, reading ahead or not.
fn repair_ahead(data: &[u8], options: &RepairOptions, cut: usize, read_ahead: bool) -> Vec<u8> {
    let mut repairer = Repairer::new(options.clone());
    repairer.set_read_ahead(read_ahead);
    let cut = cut.min(data.len());
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
        mojibake: control & 0x40 != 0,
        // One thread or several: the output must not depend on it.
        threads: 1 + data.len() % 3,
        // What utf8fix --strip removes: every lint at once, or none.
        strip: if control & 0x80 != 0 {
            LintSet::ALL.without(LintSet::NONE.with(Lint::Bom))
        } else {
            LintSet::NONE
        },
    };
    let whole = repair(data, &options, data.len());
    assert!(std::str::from_utf8(&whole).is_ok(), "well-formed output");
    assert_eq!(repair(&whole, &options, whole.len()), whole, "idempotent");
    assert_eq!(
        repair(data, &options, data.len() / 2),
        whole,
        "chunk splits change nothing"
    );
    // Reading ahead changes when the output comes, never what it is.
    let cut = data.len() / 3;
    assert_eq!(
        repair_ahead(data, &options, cut, true),
        repair(data, &options, cut),
        "reading ahead changes nothing"
    );
    if options == RepairOptions::default() {
        assert_eq!(whole, String::from_utf8_lossy(data).as_bytes());
    }
});
