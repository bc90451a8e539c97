//! One input checked: read, scanned, its findings written, its hint found.

use super::*;

/// How many bytes at the start of an input the hint looks at for UTF-16 without a mark (and
/// keeps of standard input, which cannot be read again).
pub(super) const HINT_SAMPLE_LEN: usize = 64 * 1024;

/// Checks one job, writing its output to `out`. A failure to write is kept in the outcome,
/// whose findings still count.
pub(super) fn check_job(
    settings: &Settings,
    job: &Job,
    reader: &mut ChunkReader,
    out: &mut dyn WriteColor,
) -> Outcome {
    let directory;
    let (source, from_walk, name_only) = match job {
        Job::Trouble { path, reason } => return trouble(settings, out, path, reason.clone()),
        Job::Note { path, text } => {
            return Outcome {
                hints: vec![format!("{path}: {text}")],
                ..Outcome::default()
            };
        }
        Job::Check { source, from_walk } => (source, *from_walk, false),
        // A directory on an input's path: only its name is checked.
        Job::Name { path } => {
            directory = Source::Path(path.clone());
            (&directory, true, true)
        }
    };
    let name = InputName::of(source, settings.label.as_deref());
    let printer = Printer::new(settings.format);
    // Every format carries the hints (SPEC 3): a note on standard error for people, a record
    // of its own in the machine formats.
    let wants_hint = settings.mode == Mode::Findings;
    let mut scanner = Scanner::new(settings.codec);
    let mut sink = FindingSink {
        settings,
        printer: &printer,
        name: &name,
        out,
        errors: 0,
        legacy: hint::LegacyTally::default(),
        foreign_bom: None,
        is_capped: false,
        warnings: 0,
        results: Vec::new(),
        write_error: None,
    };
    // The input's own name comes first: its findings are those of the input.
    let own_name = match source {
        Source::Path(path) => path.file_name().map(OsStrExt::as_bytes),
        Source::Stdin => None,
    };
    let named = own_name.map_or(ControlFlow::Continue(()), |name| sink.name(name));
    let mut is_binary = false;
    let mut is_first = true;
    // Standard input cannot be read again: its start is kept for the hint. A file is read
    // again only if the hint is wanted (findings of the legacy kind, or a NUL near the start).
    let mut sample = Vec::new();
    let keeps_sample = wants_hint && matches!(source, Source::Stdin);
    let mut head_seen = 0;
    let mut head_has_nul = false;
    // The start of an input in which the line filter sees mojibake: judged if the input is valid.
    let mut mojibake_head: Option<Vec<u8>> = None;
    let skips_content = name_only || named.is_break();
    let mut well_formed_len = None;
    let read = if skips_content {
        Ok(())
    } else {
        reader.open(source).and_then(|mut file| {
            let is_skipped_binary =
                |head: &[u8]| from_walk && !settings.binary && looks_binary(head);
            let mut whole = |file: &mut File, first: &[u8]| {
                // A binary file in a walk is skipped after its first chunk, not read whole.
                if is_skipped_binary(first) {
                    return false;
                }
                well_formed_len = well_formed_on_every_core(settings, file, first.len() as u64);
                well_formed_len.is_some()
            };
            let taken = reader.read_file_unless(&mut file, &mut whole, &mut |chunk, is_last| {
                if is_first {
                    is_first = false;
                    if is_skipped_binary(chunk) {
                        is_binary = true;
                        return ControlFlow::Break(());
                    }
                }
                if wants_hint && head_seen < HINT_SAMPLE_LEN {
                    let head = &chunk[..chunk.len().min(HINT_SAMPLE_LEN - head_seen)];
                    head_has_nul |= memchr::memchr(0, head).is_some();
                    if head_seen == 0 && has_suspect(head) {
                        mojibake_head = Some(head.to_vec());
                    }
                    head_seen += head.len();
                    if keeps_sample {
                        sample.extend_from_slice(head);
                    }
                }
                scanner.feed(chunk, is_last, &mut sink)
            })?;
            if let (true, Some(len)) = (taken && wants_hint, well_formed_len) {
                // A valid file has no finding; only the hint's look at its head is left.
                let head = read_head(&mut file, len);
                head_has_nul = memchr::memchr(0, &head).is_some();
                let is_suspect = has_suspect(&head);
                if keeps_sample {
                    mojibake_head = is_suspect.then(|| head.clone());
                    sample = head;
                } else if is_suspect {
                    mojibake_head = Some(head);
                }
            }
            Ok(())
        })
    };
    let FindingSink {
        errors,
        legacy,
        foreign_bom,
        is_capped,
        warnings,
        mut results,
        write_error,
        out,
        ..
    } = sink;
    let summary = Summary {
        bytes: well_formed_len.unwrap_or_else(|| scanner.bytes_scanned()),
        errors,
        warnings: (!settings.warn.is_empty()).then_some(warnings),
        complete: !is_capped,
    };
    if let Some(error) = write_error {
        return Outcome {
            summary: Some(summary),
            write_error: Some(error),
            ..Outcome::default()
        };
    }
    if let Err(error) = read {
        return trouble(settings, out, name.human(), io_reason(&error));
    }
    if is_binary && errors == 0 {
        return Outcome::default();
    }
    let listed = |out: &mut dyn WriteColor, count: Option<u64>| -> io::Result<()> {
        let path = match (settings.null, source) {
            (true, Source::Path(path)) => path.as_os_str().as_bytes(),
            _ => name.listed(settings.format).as_bytes(),
        };
        out.write_all(path)?;
        match (count, settings.null) {
            (None, true) => out.write_all(b"\0"),
            (None, false) => out.write_all(b"\n"),
            (Some(n), true) => writeln!(out, "\0{n}"),
            (Some(n), false) => writeln!(out, ":{n}"),
        }
    };
    let findings = if foreign_bom.is_some() {
        hint::Findings::Other
    } else {
        legacy.findings()
    };
    let may_be_utf16 = foreign_bom.is_none() && head_has_nul;
    let mut hints = Vec::new();
    if wants_hint {
        if let (Source::Path(path), Some(name)) = (source, own_name) {
            hints.extend(hint::name_hint(path, name));
        }
        if let Some(bom) = foreign_bom {
            hints.push(hint::bom_hint(source, bom));
        } else if findings != hint::Findings::Other || may_be_utf16 {
            hints.extend(hint::hint(source, reader, &sample, findings));
        } else if errors == 0
            && let Some(head) = &mojibake_head
        {
            hints.extend(mojibake_note(source, head));
        }
    }
    // People read the hints on standard error; the machine formats carry them as records, after
    // the input's findings.
    let mut notes = Vec::new();
    let mut hinted = Ok(());
    for hint in hints {
        let hint = hint::Hint {
            name: name.human().to_owned(),
            ..hint
        };
        match settings.format {
            Format::Human => notes.push(hint.human()),
            Format::Json | Format::Github => {
                hinted = hinted.and_then(|()| printer.hint(out, &name, &hint));
            }
            Format::Sarif => results.push(Sarif::hint(&name, &hint)),
            Format::Codeclimate => results.push(crate::report::codeclimate_hint(&name, &hint)),
        }
    }
    let written = hinted.and_then(|()| match settings.mode {
        Mode::Quiet => Ok(()),
        Mode::FilesWithErrors if errors > 0 => listed(out, None),
        Mode::FilesWithoutErrors if errors == 0 => listed(out, None),
        Mode::FilesWithErrors | Mode::FilesWithoutErrors => Ok(()),
        Mode::Count if settings.count_shows_names() => listed(out, Some(errors)),
        Mode::Count => writeln!(out, "{errors}"),
        Mode::Findings => printer.summary(out, &name, &summary, settings.summary),
    });
    Outcome {
        summary: Some(summary),
        trouble: None,
        results,
        hints: notes,
        write_error: written.err(),
    }
}

/// The length of `file` when it is a big regular file that every thread read together and
/// found well-formed, with no finding of the lints asked for ([`whole`]); `None` sends it to
/// the one-thread scan, which also gives every finding of a file that is not. `read` bytes
/// were read from it already.
pub(super) fn well_formed_on_every_core(
    settings: &Settings,
    file: &mut File,
    read: u64,
) -> Option<u64> {
    if settings.threads < 2 {
        return None;
    }
    let metadata = file.metadata().ok()?;
    // Standard input may have been read from already: only what is left is its content.
    let start = file.stream_position().ok()?.checked_sub(read)?;
    let len = metadata.len().checked_sub(start)?;
    let big_file = metadata.is_file() && len >= whole::MIN_LEN;
    (big_file && whole::is_clean(file, start, len, settings.threads, &settings.codec))
        .then_some(len)
}

/// The first [`HINT_SAMPLE_LEN`] bytes of the last `len` bytes of `file` (fewer when it is
/// shorter or cannot be read), read without moving its position.
pub(super) fn read_head(file: &mut File, len: u64) -> Vec<u8> {
    use std::os::unix::fs::FileExt;
    let mut head = vec![0; HINT_SAMPLE_LEN];
    let mut filled = 0;
    let start = file.metadata().map_or(0, |m| m.len().saturating_sub(len));
    while filled < head.len() {
        match file.read_at(&mut head[filled..], start + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    head.truncate(filled);
    head
}

/// The outcome of trouble with one input: a message for standard error, and with `--format
/// github` an `::error` annotation too, so that the run's log shows it where findings are.
pub(super) fn trouble(
    settings: &Settings,
    out: &mut dyn WriteColor,
    path: &str,
    reason: String,
) -> Outcome {
    let annotated = if settings.format == Format::Github && settings.mode == Mode::Findings {
        writeln!(
            out,
            "::error file={},title=utf8check trouble::{}",
            crate::report::github_property(path),
            crate::report::github_message(&reason)
        )
    } else {
        Ok(())
    };
    Outcome {
        trouble: Some((path.to_owned(), reason)),
        write_error: annotated.err(),
        ..Outcome::default()
    }
}

/// Writes or counts each finding as it comes.
pub(super) struct FindingSink<'a> {
    pub(super) settings: &'a Settings,
    pub(super) printer: &'a Printer,
    pub(super) name: &'a InputName,
    pub(super) out: &'a mut dyn WriteColor,
    pub(super) errors: u64,
    /// The ill-formed units, and those of one or two bytes that a legacy encoding leaves.
    pub(super) legacy: hint::LegacyTally,
    pub(super) foreign_bom: Option<utf8kit_codec::bom::ForeignBom>,
    /// `--max-errors` stopped the scan: more findings follow.
    pub(super) is_capped: bool,
    /// Findings of the `--warn` lints.
    pub(super) warnings: u64,
    /// SARIF results or CodeClimate issues, for the document written at the end.
    pub(super) results: Vec<serde_json::Value>,
    pub(super) write_error: Option<io::Error>,
}

impl FindingSink<'_> {
    /// Reports what is wrong with the input's name: each unit that is not UTF-8 (`file-name`),
    /// or, if asked, a UTF-8 name that is not in NFC (`non-nfc-name`). The offsets are those
    /// inside the name; line and column are 0, since the name is not in the content.
    pub(super) fn name(&mut self, name: &[u8]) -> ControlFlow<()> {
        let at = |byte_offset: usize| Position {
            byte_offset: byte_offset as u64,
            line: 0,
            column: 0,
        };
        let bad = crate::names::ill_formed(name);
        for unit in &bad {
            self.found(&Finding {
                position: at(unit.offset),
                kind: FindingKind::Name(NameIssue::IllFormed(unit.kind)),
                bytes: &name[unit.offset..unit.offset + unit.len],
                codepoint: unit.codepoint,
            })?;
        }
        // The lints that make a name show as another read names too (SPEC 3), with the same
        // context rules as in content (a flag's tags, a ZWJ inside an emoji stay).
        let name_lints = [Lint::Bidi, Lint::Control, Lint::Invisible, Lint::Tag]
            .into_iter()
            .filter(|&lint| self.settings.codec.lints.contains(lint))
            .fold(LintSet::NONE, LintSet::with);
        if bad.is_empty() && !name_lints.is_empty() {
            let config = Config {
                lints: name_lints,
                ..Config::default()
            };
            let mut found = Vec::new();
            let _ =
                utf8kit_codec::scan(name, config, &mut |finding: &utf8kit_codec::Finding<'_>| {
                    if let utf8kit_codec::FindingKind::Lint(lint) = finding.kind {
                        let start = finding.position.byte_offset as usize;
                        found.push((start, start + finding.bytes.len(), lint, finding.codepoint));
                    }
                    ControlFlow::Continue(())
                });
            for (start, end, lint, codepoint) in found {
                self.found(&Finding {
                    position: at(start),
                    kind: FindingKind::Name(NameIssue::Lint(lint)),
                    bytes: &name[start..end],
                    codepoint,
                })?;
            }
        }
        if bad.is_empty() && self.settings.nfc_names.is_some() && !crate::names::is_nfc(name) {
            self.found(&Finding {
                position: at(0),
                kind: FindingKind::Name(NameIssue::NotNfc),
                bytes: name,
                codepoint: None,
            })?;
        }
        ControlFlow::Continue(())
    }

    /// Counts one finding (an error or a warning) and reports it as the mode asks.
    pub(super) fn found(&mut self, finding: &Finding<'_>) -> ControlFlow<()> {
        let is_warning = match finding.kind {
            FindingKind::Lint(lint) | FindingKind::Name(NameIssue::Lint(lint)) => {
                self.settings.warn.contains(lint)
            }
            FindingKind::Name(NameIssue::NotNfc) => {
                self.settings.nfc_names == Some(Severity::Warning)
            }
            _ => false,
        };
        if is_warning {
            // A warning: shown with the findings, never counted as an error.
            self.warnings += 1;
            return match self.settings.mode {
                Mode::Findings => self.report(finding, Severity::Warning),
                _ => ControlFlow::Continue(()),
            };
        }
        if self
            .settings
            .max_errors
            .is_some_and(|max| self.errors >= max)
        {
            self.is_capped = true;
            return ControlFlow::Break(());
        }
        self.errors += 1;
        match finding.kind {
            FindingKind::IllFormed(kind) => self.legacy.count(kind, finding.bytes.len()),
            FindingKind::ForeignBom(bom) => self.foreign_bom = Some(bom),
            // Lints, names, and whatever kinds the codec adds: no legacy evidence.
            _ => {}
        }
        match self.settings.mode {
            // One finding decides these: stop reading the input.
            Mode::Quiet | Mode::FilesWithErrors | Mode::FilesWithoutErrors => {
                ControlFlow::Break(())
            }
            Mode::Count => ControlFlow::Continue(()),
            Mode::Findings => self.report(finding, Severity::Error),
        }
    }

    /// Writes one finding in the chosen format, or keeps it for the run's document.
    pub(super) fn report(&mut self, finding: &Finding<'_>, severity: Severity) -> ControlFlow<()> {
        match self.settings.format {
            Format::Sarif => {
                self.results
                    .push(Sarif::result(self.name, finding, severity));
                ControlFlow::Continue(())
            }
            Format::Codeclimate => {
                self.results.push(crate::report::codeclimate_issue(
                    self.name, finding, severity,
                ));
                ControlFlow::Continue(())
            }
            _ => match self.printer.finding(self.out, self.name, finding, severity) {
                Ok(()) => ControlFlow::Continue(()),
                Err(error) => {
                    self.write_error = Some(error);
                    ControlFlow::Break(())
                }
            },
        }
    }
}

impl Sink for FindingSink<'_> {
    fn finding(&mut self, finding: &utf8kit_codec::Finding<'_>) -> ControlFlow<()> {
        self.found(&Finding::from(finding))
    }
}

/// Whether the well-formed start of `head` (all of it, for a valid input; up to its first
/// finding otherwise, a legacy file's C0 and C1 bytes among them) holds a line that may hold
/// mojibake ([`utf8kit_mojibake::first_suspect`]).
fn has_suspect(head: &[u8]) -> bool {
    crate::detect::iso_2022(head).is_some()
        || utf8kit_mojibake::first_suspect(utf8kit_codec::well_formed_start(head)).is_some()
}

/// The note for a valid input whose start holds lines that read as mojibake: the first such
/// line judged by the mojibake repair, at most [`MOJIBAKE_LINES`] of them looked at.
fn mojibake_note(source: &Source, head: &[u8]) -> Option<hint::Hint> {
    if let Some(iso_2022) = crate::detect::iso_2022(head) {
        return Some(hint::iso_2022_hint(source, iso_2022));
    }
    let text = utf8kit_codec::well_formed_start(head);
    let mut from = 0;
    for _ in 0..MOJIBAKE_LINES {
        let at = from + utf8kit_mojibake::first_suspect(&text[from..])?;
        let start = text[..at].rfind('\n').map_or(0, |end| end + 1);
        let end = text[at..].find('\n').map_or(text.len(), |end| at + end + 1);
        let line = &text[start..end];
        if let Some(fix) = utf8kit_mojibake::undo_mojibake(line) {
            let layer = fix.chain.layers().next();
            let encoding = layer.map_or("windows-1252", |l| l.read_as.name());
            let read = match layer.and_then(|l| l.written) {
                Some(written) => format!("{written} text read as {encoding}"),
                None => format!("UTF-8 read as {encoding}"),
            };
            // Where the line first changes, with a few characters before it.
            let same = line
                .chars()
                .zip(fix.text.chars())
                .take_while(|(a, b)| a == b)
                .count();
            let from = same.saturating_sub(12);
            let shown = |text: &str| -> String {
                let text: String = text.trim_end().chars().skip(from).take(32).collect();
                crate::render::quoted(text.as_bytes()).into_owned()
            };
            let example = format!("'{}' for '{}'", shown(line), shown(&fix.text));
            return Some(hint::mojibake_hint(source, encoding, &read, &example));
        }
        from = end;
        if from >= text.len() {
            break;
        }
    }
    None
}

/// How many suspect lines at the start of a valid input are judged for the mojibake note.
const MOJIBAKE_LINES: usize = 16;
