//! Command-line conventions the four programs share (SPEC 2): `--color`, and sizes such as `64K`.

pub use crate::generate::Generate;
pub use crate::output::ColorWhen;

/// Parses the command line of `program`; `--help` and `--version` print and exit 0, and a usage
/// error exits 2 after one line on standard error: `PROGRAM: what is wrong (see PROGRAM --help)`.
pub fn parse_args<A: clap::Parser>(
    program: &str,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> A {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if let Err(reason) = force_impl(std::env::var_os("UTF8KIT_FORCE_IMPL")) {
        eprintln!("{program}: {reason}");
        std::process::exit(2);
    }
    let parsed = A::command()
        .try_get_matches_from(&args)
        .and_then(|matches| {
            // `--generate KIND` prints a man page or a completion script, whatever else is given.
            if let Some(&kind) = matches.get_one::<Generate>("generate") {
                std::process::exit(crate::generate::print(program, kind, A::command()));
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
            // A habit of another tool gets the mapping, not clap's guess ("did you mean 'c'").
            let reason = habit(program, &args, &error).unwrap_or(reason);
            eprintln!("{program}: {reason} (see {program} --help)");
            std::process::exit(2);
        }
    }
}

/// Caps the SIMD kernels at the level `UTF8KIT_FORCE_IMPL` names (`avx512`, `avx2`,
/// `portable`), read once at start, so that one machine measures and tests every level it has.
///
/// # Errors
///
/// An unknown level, or one this processor lacks, with the reason.
pub fn force_impl(value: Option<std::ffi::OsString>) -> Result<(), String> {
    use utf8kit_codec::simd::{self, Level};
    let Some(value) = value else {
        return Ok(());
    };
    let shown = crate::render::quoted(value.as_encoded_bytes()).into_owned();
    let names = Level::ALL
        .iter()
        .rev()
        .map(|level| level.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let level = value.to_str().and_then(Level::parse).ok_or_else(|| {
        format!("UTF8KIT_FORCE_IMPL={shown}: unknown level (possible values: {names})")
    })?;
    simd::cap(level).map_err(|error| format!("UTF8KIT_FORCE_IMPL={shown}: {error}"))
}

/// The teaching message for a habit of another tool that clashes with this program's options:
/// iconv's `-f ENC`, `--json`, hexdump's `-C FILE`, `-o FILE`. `None` when the error is not one.
fn habit(program: &str, args: &[std::ffi::OsString], error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let given = |spelling: &str| args.iter().skip(1).any(|arg| arg == spelling);
    let invalid_arg = context(ContextKind::InvalidArg).unwrap_or_default();
    match (program, error.kind()) {
        (_, ErrorKind::UnknownArgument) if invalid_arg == "--json" => Some(format!(
            "--json is spelled --format json here ({program} --format json)"
        )),
        ("utf8fix", ErrorKind::UnknownArgument)
            if invalid_arg == "-o" || invalid_arg.starts_with("--output") =>
        {
            Some(
                "utf8fix writes the repaired text to standard output: redirect it (> FILE), or \
                 rewrite each FILE in place with -i"
                    .to_owned(),
            )
        }
        ("utf8enc", ErrorKind::InvalidValue) if invalid_arg.starts_with("--format") => {
            let value = context(ContextKind::InvalidValue)?;
            crate::encodings::resolve(value).ok()?;
            Some(format!(
                "-f/--format is the notation here (table, hex, c, json, ...), and '{value}' is an \
                 encoding: convert with --from {value} (iconv's -f) or --to {value} (iconv's -t)"
            ))
        }
        ("utf8dump", _)
            if given("-C") && !given("--errors-only") && invalid_arg.contains("context") =>
        {
            Some(
            "-C is --context here (the units around each ill-formed unit, with --errors-only); \
             hexdump -C's view is -x"
                    .to_owned(),
            )
        }
        ("utf8dump", ErrorKind::MissingRequiredArgument) if given("-C") => Some(
            "-C is --context here (the units around each ill-formed unit, with --errors-only); \
             hexdump -C's view is -x"
                .to_owned(),
        ),
        _ => None,
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
const LINT_NAMES: [&str; 12] = [
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
    "mixed-script",
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
