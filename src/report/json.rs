//! JSON lines shared by utf8check (`--format json`) and utf8dump (`--format json`): a unit as
//! an object.

use super::*;

/// Appends one unit as the JSON object of SPEC 4 (`utf8dump --format json`, `utf8enc -d -f json`):
/// `{"offset":N,"length":N,"bytes":"e282ac","kind":"char","codepoint":N|null}`, no newline.
pub fn push_unit_json(
    line: &mut String,
    offset: u64,
    bytes: &[u8],
    kind: UnitKind,
    codepoint: Option<u32>,
) {
    use std::fmt::Write as _;
    let _ = write!(
        line,
        "{{\"offset\":{offset},\"length\":{},\"bytes\":\"{}\",\"kind\":\"{}\",\"codepoint\":",
        bytes.len(),
        Hex(bytes, ""),
        kind.as_str()
    );
    match codepoint {
        Some(cp) => {
            let _ = write!(line, "{cp}");
        }
        None => line.push_str("null"),
    }
    line.push('}');
}
