//! `-v`: one line on standard error per repair.

use super::*;

/// Writes `-v` lines to standard error.
pub(super) struct RepairLog<'a> {
    pub(super) settings: &'a Settings,
    pub(super) err: StandardStream,
}

impl RepairLog<'_> {
    pub(super) fn repairer(&self, repairer: Fixer) -> Fixer {
        if self.settings.verbose {
            repairer.with_log()
        } else {
            repairer
        }
    }

    pub(super) fn print(&mut self, name: &str, repairer: &mut Fixer) {
        if !self.settings.verbose {
            return;
        }
        for repair in repairer.take_log() {
            // A failing stderr leaves nowhere to complain.
            let _ = self.line(name, &repair);
        }
    }

    pub(super) fn line(&mut self, name: &str, repair: &LineRepair) -> io::Result<()> {
        let (byte_offset, kind, bytes) = match repair {
            LineRepair::Codec(repair) => {
                (repair.byte_offset, repair.kind.to_string(), repair.bytes())
            }
            LineRepair::Mojibake(line) => (line.byte_offset, "mojibake".to_owned(), line.bytes()),
        };
        write!(self.err, "utf8fix: {name}: offset {byte_offset}: ")?;
        self.err
            .set_color(ColorSpec::new().set_fg(Some(Color::Red)).set_bold(true))?;
        write!(self.err, "{kind}")?;
        self.err.reset()?;
        writeln!(
            self.err,
            " {}: {}",
            crate::render::Hex(bytes, " "),
            self.action(repair)
        )
    }

    pub(super) fn action(&self, repair: &LineRepair) -> String {
        let repair = match repair {
            LineRepair::Codec(repair) => repair,
            LineRepair::Mojibake(line) if line.groups == 1 => {
                return format!("line decoded back from {} (1 sequence)", line.chain);
            }
            LineRepair::Mojibake(line) => {
                return format!(
                    "line decoded back from {} ({} sequences)",
                    line.chain, line.groups
                );
            }
        };
        match repair.kind {
            RepairKind::StrippedBom => "byte order mark removed".to_owned(),
            RepairKind::Stripped(_) => "removed".to_owned(),
            RepairKind::Flagged(_) => {
                "a word mixing scripts, left as it is (utf8check --deny mixed-script names it)"
                    .to_owned()
            }
            RepairKind::ModifiedNul => "decoded as U+0000 (Modified UTF-8)".to_owned(),
            RepairKind::JoinedPair => "surrogate pair joined into one 4-byte character".to_owned(),
            RepairKind::IllFormed(_) => match &self.settings.repair.replacement {
                Replacement::Text(text) if text == "\u{FFFD}" => "replaced by U+FFFD".to_owned(),
                Replacement::Text(text) => format!("replaced by {text:?}"),
                Replacement::Drop => "dropped".to_owned(),
                Replacement::Escape => "escaped".to_owned(),
                Replacement::Fallback(_) => format!(
                    "decoded as {}",
                    self.settings.fallback_name.as_deref().unwrap_or("fallback")
                ),
            },
            // A repair the codec adds before this program knows it: its name says it.
            other => other.to_string(),
        }
    }

    pub(super) fn summary(&mut self, name: &str, repairs: u64, outcome: Option<&str>) {
        if !self.settings.verbose {
            return;
        }
        let count = match repairs {
            0 => "no repair needed".to_owned(),
            1 => "1 repair".to_owned(),
            n => format!("{n} repairs"),
        };
        let text = match outcome {
            Some(outcome) => format!("utf8fix: {name}: {count}, {outcome}"),
            None => format!("utf8fix: {name}: {count}"),
        };
        let _ = writeln!(self.err, "{text}");
    }
}
