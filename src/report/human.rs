//! The human format: `PATH:LINE:COLUMN: KIND: detail (bytes c0 af at offset 1)`, coloured like
//! grep, and `--summary`'s line.

use super::*;

/// One finding as a line for a person.
pub(super) fn finding(
    printer: &Printer,
    out: &mut dyn WriteColor,
    name: &InputName,
    finding: &Finding<'_>,
    severity: Severity,
) -> io::Result<()> {
    let p = finding.position;
    // A name is not in the content: no line and column, and the offset is in the name.
    let is_name = matches!(finding.kind, FindingKind::Name(_));
    let in_name = if is_name { " of the name" } else { "" };
    out.set_color(&printer.path)?;
    write!(out, "{}", name.human())?;
    out.reset()?;
    if !is_name {
        write!(out, ":")?;
        out.set_color(&printer.position)?;
        write!(out, "{}:{}", p.line, p.column)?;
        out.reset()?;
    }
    write!(out, ": ")?;
    if severity == Severity::Warning {
        write!(out, "warning: ")?;
    }
    out.set_color(match finding.kind {
        FindingKind::Lint(_) | FindingKind::Name(NameIssue::NotNfc) => &printer.lint,
        _ => &printer.ill_formed,
    })?;
    write!(out, "{}", finding.kind)?;
    out.reset()?;
    writeln!(
        out,
        ": {} (bytes {} at offset {}{in_name})",
        Detail(finding),
        Hex(finding.bytes, " "),
        p.byte_offset
    )
}

/// The words of a summary: `valid`, `3 errors`, `at least 100 errors (stopped early)`.
pub(super) fn verdict(summary: &Summary) -> String {
    match (summary.errors, summary.complete) {
        (0, _) => "valid".to_owned(),
        (1, true) => "1 error".to_owned(),
        (n, true) => format!("{n} errors"),
        (n, false) => format!("at least {n} errors (stopped early)"),
    }
}

/// `--summary`'s line: `PATH: 3 errors in 1024 bytes`.
pub(super) fn summary(
    printer: &Printer,
    out: &mut dyn WriteColor,
    name: &InputName,
    summary: &Summary,
) -> io::Result<()> {
    out.set_color(&printer.path)?;
    write!(out, "{}", name.human())?;
    out.reset()?;
    writeln!(out, ": {} in {} bytes", verdict(summary), summary.bytes)
}
