//! `--format codeclimate`: GitLab's Code Quality report.

use super::*;

/// One issue of GitLab's Code Quality report (CodeClimate's format): what GitLab reads is
/// `description`, `check_name`, `fingerprint`, `severity`, `location.path` and
/// `location.lines.begin`. The fingerprint is FNV-1a over the path's exact bytes, kind, byte
/// offset and bytes: the same finding keeps its fingerprint from one pipeline to the next.
pub fn codeclimate_issue(
    name: &InputName,
    finding: &Finding<'_>,
    severity: Severity,
) -> serde_json::Value {
    let p = finding.position;
    let path = name.codeclimate_path();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let offset = p.byte_offset.to_le_bytes();
    let parts: [&[u8]; 4] = [
        name.raw(),
        finding.kind.as_str().as_bytes(),
        &offset,
        finding.bytes,
    ];
    for part in parts {
        for &byte in part.iter().chain(&[0xFF]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    serde_json::json!({
        "type": "issue",
        "check_name": format!("utf8check/{}", finding.kind),
        "description": format!(
            "{}: {} (bytes {} at offset {})",
            finding.kind,
            Detail(finding),
            Hex(finding.bytes, " "),
            p.byte_offset
        ),
        "categories": ["Bug Risk"],
        "severity": match severity {
            Severity::Error => "major",
            Severity::Warning => "minor",
        },
        "fingerprint": format!("{hash:016x}"),
        "location": {
            "path": path,
            // A name's finding is about the whole file: its first line.
            "lines": { "begin": p.line.max(1) },
        },
    })
}

/// A hint as an issue of severity `info` on the file's first line: GitLab shows it beside the
/// findings without counting it as one.
pub fn codeclimate_hint(name: &InputName, hint: &Hint) -> serde_json::Value {
    let path = name.codeclimate_path();
    let mut fingerprint: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in name
        .raw()
        .iter()
        .chain(b"\xffhint\xff")
        .chain(hint.message.as_bytes())
    {
        fingerprint ^= u64::from(byte);
        fingerprint = fingerprint.wrapping_mul(0x0100_0000_01b3);
    }
    serde_json::json!({
        "type": "issue",
        "check_name": "utf8check/hint",
        "description": hint.message,
        "categories": ["Compatibility"],
        "severity": "info",
        "fingerprint": format!("{fingerprint:016x}"),
        "location": { "path": path, "lines": { "begin": 1 } },
    })
}
