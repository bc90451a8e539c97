//! `--format json`: JSON Lines, one `error` (or `warning`) object per finding and one `summary`
//! object per input, with the field names of SPEC 3; and the unit object utf8dump's JSON shares.

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

/// One finding as a JSON line.
pub(super) fn finding(
    out: &mut dyn WriteColor,
    name: &InputName,
    finding: &Finding<'_>,
    severity: Severity,
) -> io::Result<()> {
    let p = finding.position;
    // One buffer, one write: a write! per field through the dyn writer cost more than the rest
    // of a finding.
    use std::fmt::Write as _;
    let mut line = String::with_capacity(192);
    let _ = write!(
        line,
        "{{\"type\":\"{}\",{},\"offset\":{},\"length\":{},\"line\":{},\
         \"column\":{},\"kind\":\"{}\",\"bytes\":\"{}\",\"codepoint\":",
        severity.as_str(),
        name.json(),
        p.byte_offset,
        finding.bytes.len(),
        p.line,
        p.column,
        finding.kind,
        Hex(finding.bytes, ""),
    );
    match finding.codepoint {
        Some(cp) => {
            let _ = write!(line, "{cp}");
        }
        None => line.push_str("null"),
    }
    // The detail is plain ASCII without quotes or backslashes, no escaping needed; but for the
    // text hidden in tag characters and a mixed-script word, which it quotes.
    if matches!(
        finding.kind,
        FindingKind::Lint(Lint::Tag | Lint::MixedScript)
    ) {
        let message = json_string(&Detail(finding).to_string());
        let _ = writeln!(line, ",\"message\":{message}}}");
    } else {
        let _ = writeln!(line, ",\"message\":\"{}\"}}", Detail(finding));
    }
    out.write_all(line.as_bytes())
}

/// The summary object of one input.
/// A hint as its own object: `{"type":"hint","path":P,"encoding":E,"command":C,"message":S}`.
pub(super) fn hint(out: &mut dyn WriteColor, name: &InputName, hint: &Hint) -> io::Result<()> {
    writeln!(
        out,
        "{{\"type\":\"hint\",{},\"encoding\":{},\"command\":{},\"message\":{}}}",
        name.json(),
        serde_json::to_string(&hint.encoding)?,
        serde_json::to_string(&hint.command)?,
        json_string(&hint.message)
    )
}

pub(super) fn summary(
    out: &mut dyn WriteColor,
    name: &InputName,
    summary: &Summary,
) -> io::Result<()> {
    let warnings = summary
        .warnings
        .map_or(String::new(), |n| format!(",\"warnings\":{n}"));
    writeln!(
        out,
        "{{\"type\":\"summary\",{},\"bytes\":{},\"errors\":{}{warnings},\
         \"valid\":{},\"complete\":{}}}",
        name.json(),
        summary.bytes,
        summary.errors,
        summary.errors == 0 && summary.warnings.unwrap_or(0) == 0,
        summary.complete
    )
}
