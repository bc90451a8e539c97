//! Command-line conventions the four programs share (SPEC 2): `--color`, and sizes such as `64K`.

use clap::ValueEnum;

/// What `--generate` prints: a man page, or the completion script of a shell (ripgrep's
/// convention). The committed `man/` and `completions/` are made the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generate {
    /// The man page, in roff (`man -l -`).
    Man,
    /// The bash completion script.
    CompleteBash,
    /// The zsh completion script (a file named `_PROGRAM` on `fpath`).
    CompleteZsh,
    /// The fish completion script.
    CompleteFish,
    /// The elvish completion script.
    CompleteElvish,
    /// The PowerShell completion script.
    CompletePowershell,
}

/// Renders a man page or a completion script for `command`.
pub fn generate(kind: Generate, command: clap::Command) -> Vec<u8> {
    use clap_complete::Shell;
    let mut out = Vec::new();
    let shell = match kind {
        Generate::Man => return man_page(command),
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
        Generate::CompleteElvish => Shell::Elvish,
        Generate::CompletePowershell => Shell::PowerShell,
    };
    let mut command = command;
    let name = command.get_name().to_owned();
    clap_complete::generate(shell, &mut command, name, &mut out);
    out
}

/// The date the man pages carry (`.TH`): the day their text was last revised.
const MAN_DATE: &str = "2026-11-23";

/// Escapes text for roff: backslashes, hyphens (so that they are not hyphenation points and
/// copy as ASCII), and a leading `.` or `'` that would start a request.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}

/// The man page of `command`: clap_mangen's title, NAME, SYNOPSIS, DESCRIPTION and OPTIONS, then
/// the sections of the long help's epilogue (`Exit status:`, `Examples:` ...) as man sections
/// of their own (EXIT STATUS, EXAMPLES, ...), ENVIRONMENT and SEE ALSO. Hyphenation is off, so
/// that JSON keys and code are never split; mandoc's warnings about clap_mangen's paragraph
/// breaks and backslashes are mended.
fn man_page(command: clap::Command) -> Vec<u8> {
    let name = command.get_name().to_owned();
    let epilogue = command
        .get_after_long_help()
        .map(|text| text.to_string())
        .unwrap_or_default();
    let man = clap_mangen::Man::new(command).date(MAN_DATE);
    let mut page = Vec::new();
    let rendered: std::io::Result<()> = (|| {
        man.render_title(&mut page)?;
        page.extend_from_slice(b".nh\n");
        man.render_name_section(&mut page)?;
        man.render_synopsis_section(&mut page)?;
        man.render_description_section(&mut page)?;
        man.render_options_section(&mut page)?;
        Ok(())
    })();
    rendered.expect("rendering into memory cannot fail");
    let mut page = String::from_utf8(page).expect("clap_mangen writes UTF-8");
    page = page.replace("\n.br\n\n.br\n", "\n.sp\n");
    page = page.replace("\\\\", "\\e");
    let mut has_environment = false;
    let mut preformatted = false;
    let mut starts_section = false;
    for line in epilogue.lines() {
        let trimmed = line.trim();
        if !line.starts_with(' ') && trimmed.ends_with(':') {
            if preformatted {
                page.push_str(".fi\n");
            }
            let title = trimmed.trim_end_matches(':').to_uppercase();
            has_environment |= title == "ENVIRONMENT";
            preformatted = matches!(title.as_str(), "EXAMPLES" | "JSON" | "FORMATS");
            page.push_str(&format!(".SH \"{title}\"\n"));
            starts_section = true;
            if preformatted {
                page.push_str(".nf\n");
            }
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        if preformatted {
            page.push_str(&roff_text(line.strip_prefix("  ").unwrap_or(line)));
            page.push('\n');
            continue;
        }
        // "0  every input is valid": a tagged paragraph.
        let mut split = trimmed.splitn(2, "  ");
        match (split.next(), split.next()) {
            (Some(tag), Some(rest)) if tag.chars().all(|c| c.is_ascii_digit()) => {
                page.push_str(&format!(".TP\n\\fB{tag}\\fR\n{}\n", roff_text(rest.trim())));
            }
            // The first paragraph of a section needs no paragraph break.
            _ if starts_section => page.push_str(&format!("{}\n", roff_text(trimmed))),
            _ => page.push_str(&format!(".PP\n{}\n", roff_text(trimmed))),
        }
        starts_section = false;
    }
    if preformatted {
        page.push_str(".fi\n");
    }
    if !has_environment {
        page.push_str(
            ".SH ENVIRONMENT\n.TP\n\\fBNO_COLOR\\fR\nWhen set, \\-\\-color auto colours nothing.\n\
             .TP\n\\fBTERM\\fR\nWhen dumb, \\-\\-color auto colours nothing.\n",
        );
    }
    let mut see_also: Vec<String> = ["utf8check", "utf8dump", "utf8enc", "utf8fix"]
        .iter()
        .filter(|&&other| other != name)
        .map(|other| format!("\\fB{other}\\fR(1)"))
        .collect();
    see_also.extend(
        [
            "iconv", "uconv", "xxd", "hexyl", "isutf8", "grep", "rg", "sed",
        ]
        .iter()
        .map(|peer| format!("\\fB{peer}\\fR(1)")),
    );
    page.push_str(&format!(".SH \"SEE ALSO\"\n{}\n", see_also.join(", ")));
    page.into_bytes()
}

/// When to colour output: the `--color` option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    /// Colour only when standard output is a terminal, unless `NO_COLOR` is set or `TERM=dumb`.
    #[default]
    Auto,
    /// Always colour, even into a pipe or a file.
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    /// The termcolor choice for standard output. `auto` becomes `never` unless stdout is a
    /// terminal; termcolor then applies `NO_COLOR` and `TERM=dumb` itself.
    pub fn resolve(self, is_terminal: bool) -> termcolor::ColorChoice {
        match self {
            ColorWhen::Always => termcolor::ColorChoice::Always,
            ColorWhen::Never => termcolor::ColorChoice::Never,
            ColorWhen::Auto if is_terminal => termcolor::ColorChoice::Auto,
            ColorWhen::Auto => termcolor::ColorChoice::Never,
        }
    }
}

/// Parses the command line of `program`; `--help` and `--version` print and exit 0, and a usage
/// error exits 2 after one line on standard error: `PROGRAM: what is wrong (see PROGRAM --help)`.
pub fn parse_args<A: clap::Parser>(
    program: &str,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> A {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    let parsed = A::command()
        .try_get_matches_from(&args)
        .and_then(|matches| {
            // `--generate KIND` prints a man page or a completion script, whatever else is given.
            if let Some(&kind) = matches.get_one::<Generate>("generate") {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                let written = out
                    .write_all(&generate(kind, A::command()))
                    .and_then(|()| out.flush());
                std::process::exit(match written {
                    Err(error) if !crate::output::is_broken_pipe(&error) => {
                        eprintln!(
                            "{program}: write error: {}",
                            crate::input::io_reason(&error)
                        );
                        2
                    }
                    _ => 0,
                });
            }
            A::from_arg_matches(&matches)
        });
    match parsed {
        Ok(args) => args,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                let _ = error.print();
                std::process::exit(0);
            }
            // clap quotes the arguments raw, and its text drops what looks like a terminal
            // escape: the arguments are shown safely, and parsed again to word the reason.
            let shown: Vec<String> = args
                .iter()
                .map(|arg| crate::render::quoted(arg.as_encoded_bytes()).into_owned())
                .collect();
            let is_changed = shown
                .iter()
                .zip(&args)
                .any(|(s, a)| s.as_str() != a.as_os_str());
            let reason = match A::try_parse_from(&shown) {
                Err(again) if is_changed && again.kind() == error.kind() => usage_reason(&again),
                _ => usage_reason(&error),
            };
            eprintln!("{program}: {reason} (see {program} --help)");
            std::process::exit(2);
        }
    }
}

/// A clap error as one line that keeps the whole reason: the message, the arguments it names,
/// the possible values and any tip ("a similar argument exists"), without the usage block; input
/// quoted in it is shown safely.
fn usage_reason(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let mut parts: Vec<String> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        match parts.last_mut() {
            // "the following required arguments were not provided:" then one per line.
            Some(last) if last.ends_with(':') => {
                last.push(' ');
                last.push_str(line);
            }
            Some(last) if !line.starts_with("tip:") && !line.starts_with('[') => {
                last.push_str(", ");
                last.push_str(line);
            }
            Some(last) => {
                last.push_str(if line.starts_with('[') { " " } else { "; " });
                last.push_str(line);
            }
            None => parts.push(line.to_owned()),
        }
    }
    let joined = if parts.is_empty() {
        "bad usage".to_owned()
    } else {
        parts.join("; ")
    };
    crate::render::defanged(&joined).into_owned()
}

/// Parses a size or offset: decimal, `0x` hex, with an optional K, M or G suffix (1024-based).
///
/// ```
/// use utf8kit::cli::parse_size;
/// assert_eq!(parse_size("4096"), Ok(4096));
/// assert_eq!(parse_size("0x10"), Ok(16));
/// assert_eq!(parse_size("64K"), Ok(65536));
/// assert_eq!(parse_size("2m"), Ok(2 << 20));
/// assert!(parse_size("1.5K").is_err());
/// ```
///
/// # Errors
///
/// A message naming what is wrong, for clap to print.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, shift) = match text.as_bytes().last() {
        Some(b'k' | b'K') => (&text[..text.len() - 1], 10),
        Some(b'm' | b'M') => (&text[..text.len() - 1], 20),
        Some(b'g' | b'G') => (&text[..text.len() - 1], 30),
        _ => (text, 0),
    };
    let value = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => digits.parse::<u64>(),
    }
    .map_err(|_| format!("'{text}' is not a size (use 4096, 0x1000, 64K, 1M or 2G)"))?;
    value
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("'{text}' is too large"))
}

/// The lint names of SPEC 1.6, and `all`.
const LINT_NAMES: [&str; 11] = [
    "bom",
    "nul",
    "control",
    "noncharacter",
    "bidi",
    "private-use",
    "replacement",
    "invisible",
    "tag",
    "non-ascii",
    "all",
];

/// The lint names (and `all`) as clap's possible values, so that completion scripts offer them
/// and a typo is refused with the list. Lists are comma-separated (`value_delimiter = ','`);
/// each name becomes a set and the sets are joined.
pub fn lint_parser() -> impl clap::builder::TypedValueParser<Value = utf8kit_codec::LintSet> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(LINT_NAMES)
        .map(|name| utf8kit_codec::LintSet::parse(&name).expect("a listed lint name"))
}

/// What `utf8check --deny` and `--warn` name: lints of the content, or `non-nfc-name`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denied {
    /// Lints of SPEC 1.6 (`all` is all of them).
    Lints(utf8kit_codec::LintSet),
    /// File names that are UTF-8 but not in NFC.
    NonNfcName,
}

/// The names of `utf8check --deny` and `--warn`: the lints, and `non-nfc-name`.
pub fn deny_parser() -> impl clap::builder::TypedValueParser<Value = Denied> {
    use clap::builder::TypedValueParser;
    let mut names: Vec<&str> = LINT_NAMES.to_vec();
    names.push("non-nfc-name");
    clap::builder::PossibleValuesParser::new(names).map(|name| match name.as_str() {
        "non-nfc-name" => Denied::NonNfcName,
        lint => Denied::Lints(utf8kit_codec::LintSet::parse(lint).expect("a listed lint name")),
    })
}

/// The policy names of `--allow` as possible values.
pub fn policy_parser() -> impl clap::builder::TypedValueParser<Value = utf8kit_codec::Policy> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["surrogates", "cesu8", "modified"])
        .map(|name| utf8kit_codec::Policy::from_name(&name).expect("a listed policy name"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let rows: &[(&str, Result<u64, ()>)] = &[
            ("0", Ok(0)),
            ("10", Ok(10)),
            ("0x1F", Ok(31)),
            ("0X1f", Ok(31)),
            ("1K", Ok(1024)),
            ("1k", Ok(1024)),
            ("0x10K", Ok(16384)),
            ("3G", Ok(3 << 30)),
            ("", Err(())),
            ("K", Err(())),
            ("-1", Err(())),
            ("12KB", Err(())),
            ("99999999999999999999", Err(())),
            ("17179869184G", Err(())),
        ];
        for (text, expected) in rows {
            assert_eq!(parse_size(text).map_err(|_| ()), *expected, "{text:?}");
        }
    }

    #[test]
    fn auto_colours_only_a_terminal() {
        use termcolor::ColorChoice;
        assert_eq!(ColorWhen::Auto.resolve(false), ColorChoice::Never);
        assert_eq!(ColorWhen::Auto.resolve(true), ColorChoice::Auto);
        assert_eq!(ColorWhen::Always.resolve(false), ColorChoice::Always);
        assert_eq!(ColorWhen::Never.resolve(true), ColorChoice::Never);
    }
}
