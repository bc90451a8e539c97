//! What one input came to ([`Outcome`]), and the run's totals (`Tally`): counts, the
//! status, `--summary`.

use super::*;

/// What checking one job gave, besides the output it wrote.
#[derive(Debug, Default)]
pub struct Outcome {
    /// The summary of an input that was read; `None` for trouble and skipped binary files.
    pub(super) summary: Option<Summary>,
    /// Trouble: `(path, reason)`.
    pub(super) trouble: Option<(String, String)>,
    /// The findings of a one-document format: SARIF results or CodeClimate issues.
    pub(super) results: Vec<serde_json::Value>,
    /// The hints (legacy encoding, a name's encoding) or another note, for standard error.
    pub(super) hints: Vec<String>,
    /// A failure to write the job's output; its findings still count.
    pub(super) write_error: Option<io::Error>,
}

impl Outcome {
    pub(super) fn has_findings(&self) -> bool {
        self.summary.is_some_and(|s| s.errors > 0)
    }
}

/// The state of a run: its status, totals and SARIF log.
#[derive(Debug)]
pub struct Tally {
    pub(super) status: Status,
    pub(super) mode: Mode,
    pub(super) format: Format,
    pub(super) summary: bool,
    pub(super) inputs: u64,
    pub(super) inputs_with_findings: u64,
    pub(super) findings: u64,
    pub(super) sarif: Option<Sarif>,
    /// The issues of `--format codeclimate`, written as one array at the end.
    pub(super) codeclimate: Option<Vec<serde_json::Value>>,
    pub(super) is_stopped: bool,
}

impl Tally {
    /// An empty tally for a run with these settings.
    pub fn new(settings: &Settings) -> Tally {
        Tally {
            status: Status::Clean,
            mode: settings.mode,
            format: settings.format,
            summary: settings.summary,
            inputs: 0,
            inputs_with_findings: 0,
            findings: 0,
            sarif: (settings.format == Format::Sarif && settings.mode == Mode::Findings)
                .then(Sarif::default),
            codeclimate: (settings.format == Format::Codeclimate
                && settings.mode == Mode::Findings)
                .then(Vec::new),
            is_stopped: false,
        }
    }

    /// Takes in the outcome of the next job in output order; `-q` stops at its first finding.
    pub(super) fn absorb(&mut self, outcome: Outcome, messages: &mut Messages) {
        if let Some((path, reason)) = outcome.trouble {
            messages.trouble(&path, reason);
        }
        for hint in outcome.hints {
            messages.note(hint);
        }
        if let Some(sarif) = &mut self.sarif {
            sarif.extend(outcome.results);
        } else if let Some(issues) = &mut self.codeclimate {
            issues.extend(outcome.results);
        }
        if let Some(summary) = outcome.summary {
            self.inputs += 1;
            if summary.errors > 0 {
                self.inputs_with_findings += 1;
                self.findings += summary.errors;
                self.status = self.status.merge(Status::Problems);
                if self.mode == Mode::Quiet {
                    self.is_stopped = true;
                }
            }
        }
    }

    /// Writes what comes after the last input: the SARIF log, or the `--summary` total.
    pub(super) fn finish(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if let Some(sarif) = self.sarif.take() {
            return sarif.write(out);
        }
        if let Some(issues) = self.codeclimate.take() {
            let array = serde_json::Value::Array(issues);
            serde_json::to_writer_pretty(&mut *out, &array)?;
            return writeln!(out);
        }
        let shows_total = matches!(self.format, Format::Human | Format::Github);
        if self.summary && shows_total && self.mode == Mode::Findings {
            let plural =
                |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
            if self.format == Format::Github {
                write!(out, "::notice title=utf8check summary::")?;
            }
            writeln!(
                out,
                "{} checked, {} with findings, {} in all",
                plural(self.inputs, "input"),
                self.inputs_with_findings,
                plural(self.findings, "finding")
            )?;
        }
        Ok(())
    }
}
