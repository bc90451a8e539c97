//! `--format github`: GitHub Actions workflow commands, escaped as the runner unescapes them.

use super::*;

/// One finding as a workflow command, which GitHub shows as a pull-request annotation.
pub(super) fn finding(
    out: &mut dyn WriteColor,
    name: &InputName,
    finding: &Finding<'_>,
    severity: Severity,
) -> io::Result<()> {
    let p = finding.position;
    if matches!(finding.kind, FindingKind::Name(_)) {
        // A name is not in the content: no line and column, and the offset is in the name.
        return writeln!(
            out,
            "::{} file={},title=utf8check {}::{} (bytes {} at offset {} of the name)",
            severity.as_str(),
            name.github(),
            finding.kind,
            Detail(finding),
            Hex(finding.bytes, " "),
            p.byte_offset
        );
    }
    writeln!(
        out,
        "::{} file={},line={},col={},title=utf8check {}::{} (bytes {} at offset {})",
        severity.as_str(),
        name.github(),
        p.line,
        p.column,
        finding.kind,
        Detail(finding),
        Hex(finding.bytes, " "),
        p.byte_offset
    )
}

/// `--summary` as a notice.
pub(super) fn summary(
    out: &mut dyn WriteColor,
    name: &InputName,
    summary: &Summary,
) -> io::Result<()> {
    writeln!(
        out,
        "::notice file={},title=utf8check summary::{} in {} bytes",
        name.github(),
        super::human::verdict(summary),
        summary.bytes
    )
}

/// A hint as a notice on the file: never an error, as the hint is no finding.
pub(super) fn hint(out: &mut dyn WriteColor, name: &InputName, hint: &Hint) -> io::Result<()> {
    writeln!(
        out,
        "::notice file={},title=utf8check hint::{}",
        name.github(),
        github_message(&hint.message)
    )
}

/// A GitHub Actions property value, escaped as the runner unescapes it: `%`, CR, LF, `:` and `,`.
pub fn github_property(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '%' => escaped.push_str("%25"),
            '\r' => escaped.push_str("%0D"),
            '\n' => escaped.push_str("%0A"),
            ':' => escaped.push_str("%3A"),
            ',' => escaped.push_str("%2C"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// A GitHub Actions command's message, escaped as the runner unescapes it: `%`, CR and LF.
pub fn github_message(value: &str) -> String {
    value
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}
