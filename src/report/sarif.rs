//! `--format sarif`: SARIF 2.1.0, one run, a rule per finding kind.

use super::*;

/// The SARIF 2.1.0 log of a run: results are added as inputs are checked, and the whole log is
/// written at the end (one run, one rule per kind, `columnKind` `unicodeCodePoints`).
#[derive(Debug, Default)]
pub struct Sarif {
    results: Vec<serde_json::Value>,
}

impl Sarif {
    /// The SARIF result for one finding of the input `name`.
    pub fn result(
        name: &InputName,
        finding: &Finding<'_>,
        severity: Severity,
    ) -> serde_json::Value {
        let p = finding.position;
        let kind = finding.kind.as_str();
        let rule_index = kinds()
            .iter()
            .position(|k| k.as_str() == kind)
            .expect("every finding kind is a rule");
        let is_name = matches!(finding.kind, FindingKind::Name(_));
        // A name's finding is about the file, not a region of its content.
        let location = if is_name {
            serde_json::json!({ "artifactLocation": { "uri": name.uri() } })
        } else {
            serde_json::json!({
                "artifactLocation": { "uri": name.uri() },
                "region": {
                    "startLine": p.line,
                    "startColumn": p.column,
                    "endLine": p.line,
                    "endColumn": p.column + 1,
                    "byteOffset": p.byte_offset,
                    "byteLength": finding.bytes.len(),
                },
            })
        };
        serde_json::json!({
            "ruleId": kind,
            "ruleIndex": rule_index,
            "level": severity.as_str(),
            "message": {
                "text": format!(
                    "{}: {} (bytes {} at offset {}{})",
                    kind,
                    Detail(finding),
                    Hex(finding.bytes, " "),
                    p.byte_offset,
                    if is_name { " of the name" } else { "" }
                ),
            },
            "locations": [{ "physicalLocation": location }],
            "properties": {
                "bytes": Hex(finding.bytes, "").to_string(),
                "codepoint": finding.codepoint,
            },
        })
    }

    /// The SARIF result for a hint about the input `name`: level `note`, on the file, with the
    /// encoding and the command in its properties.
    pub fn hint(name: &InputName, hint: &Hint) -> serde_json::Value {
        serde_json::json!({
            "ruleId": "hint",
            "ruleIndex": kinds().len(),
            "level": "note",
            "message": { "text": hint.message },
            "locations": [{
                "physicalLocation": { "artifactLocation": { "uri": name.uri() } },
            }],
            "properties": {
                "encoding": hint.encoding,
                "command": hint.command,
            },
        })
    }

    /// Adds results, in output order.
    pub fn extend(&mut self, results: impl IntoIterator<Item = serde_json::Value>) {
        self.results.extend(results);
    }

    /// Writes the log.
    ///
    /// # Errors
    ///
    /// The error of writing to `out`.
    pub fn write(self, out: &mut dyn io::Write) -> io::Result<()> {
        let mut rules: Vec<serde_json::Value> = kinds()
            .iter()
            .map(|&kind| {
                let (short, help) = kind_help(kind);
                let kind = kind.as_str();
                serde_json::json!({
                    "id": kind,
                    "name": kind,
                    "shortDescription": { "text": short },
                    "fullDescription": { "text": help },
                    "help": { "text": help },
                    "defaultConfiguration": { "level": "error" },
                })
            })
            .collect();
        // The hints are notes on a file, never findings.
        rules.push(serde_json::json!({
            "id": "hint",
            "name": "hint",
            "shortDescription": { "text": "how the file can be decoded or repaired" },
            "fullDescription": {
                "text": "The file looks like text in a legacy encoding, UTF-16 or UTF-32, or (valid \
                         UTF-8) like mojibake: the command that converts or repairs it."
            },
            "help": {
                "text": "Run the command the result names: utf8enc --from ENC -o FILE FILE \
                         converts a whole file, utf8fix --fallback ENC -i FILE decodes stray \
                         legacy bytes, utf8fix --mojibake -i FILE undoes mojibake."
            },
            "defaultConfiguration": { "level": "note" },
        }));
        let log = serde_json::json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": {
                    "driver": {
                        "name": "utf8check",
                        "version": env!("CARGO_PKG_VERSION"),
                        "informationUri": env!("CARGO_PKG_REPOSITORY"),
                        "rules": rules,
                    },
                },
                "columnKind": "unicodeCodePoints",
                "results": self.results,
            }],
        });
        serde_json::to_writer_pretty(&mut *out, &log)?;
        writeln!(out)
    }
}

/// The URI of a path for SARIF: its exact bytes, unreserved characters and `/` kept, the rest
/// percent-encoded byte by byte; a relative reference for a relative path, a `file://` URI for
/// an absolute one (`file:///tmp/caf%E9`), as SARIF's `artifactLocation.uri` requires.
pub(super) fn uri_of(path: &[u8]) -> String {
    let mut uri = String::with_capacity(path.len() + 7);
    if path.starts_with(b"/") {
        uri.push_str("file://");
    }
    for &byte in path {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
}
