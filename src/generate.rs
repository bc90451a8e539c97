//! `--generate`: the man page or a shell's completion script of a program, from its clap
//! definition (SPEC 2). The committed `man/` and `completions/` are made the same way
//! (`.ci/generate`), and a test checks that they are current.

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
    let script = String::from_utf8(out).expect("clap_complete writes UTF-8");
    comma_lists(kind, &command, script).into_bytes()
}

/// Completes each item of a comma-separated list (`--deny bidi,tag`), not only the first: the
/// generated script offers the values after the last comma, the items before it kept.
fn comma_lists(kind: Generate, command: &clap::Command, script: String) -> String {
    let mut script = script;
    for arg in command.get_arguments() {
        let (Some(long), Some(',')) = (arg.get_long(), arg.get_value_delimiter()) else {
            continue;
        };
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|value| value.get_name().to_owned())
            .collect();
        if values.is_empty() {
            continue;
        }
        let words = values.join(" ");
        script = match kind {
            Generate::CompleteBash => script.replace(
                &format!(
                    "--{long})\n                    COMPREPLY=($(compgen -W \"{words}\" -- \"${{cur}}\"))"
                ),
                &format!(
                    "--{long})\n                    local prefix=\"\"\n                    \
                     [[ \"${{cur}}\" == *,* ]] && prefix=\"${{cur%,*}},\"\n                    \
                     COMPREPLY=($(compgen -P \"${{prefix}}\" -W \"{words}\" -- \"${{cur##*,}}\"))"
                ),
            ),
            Generate::CompleteZsh => script.replace(
                &format!(":({words})'"),
                &format!(":_sequence compadd - {words}'"),
            ),
            Generate::CompleteFish => {
                let list = format!(
                    " -a \"(__fish_complete_list , 'printf \\\"%s\\\\n\\\" {words}')\""
                );
                let option = format!(" -l {long} ");
                // The option's `-a "..."`, which spans a line per value: up to its closing quote.
                let span = script.find(&option).and_then(|line| {
                    let start = line + script[line..].find(" -a \"")?;
                    let body = start + " -a \"".len();
                    let mut escaped = false;
                    let end = script[body..].char_indices().find_map(|(i, c)| {
                        let is_end = c == '"' && !escaped;
                        escaped = c == '\\' && !escaped;
                        is_end.then_some(body + i + 1)
                    })?;
                    Some(start..end)
                });
                match span {
                    Some(span) => {
                        script.replace_range(span, &list);
                        script
                    }
                    None => script,
                }
            }
            _ => script,
        };
    }
    script
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

/// The SYNOPSIS of `command`: each option with its short and long names and the placeholder of
/// its value (`[-m|--max-errors N]`), then the operands.
fn synopsis(command: &clap::Command) -> String {
    // Built, the arguments know how many values they take (and --help, --version exist).
    let mut command = command.clone();
    command.build();
    let mut line = format!("\\fB{}\\fR", command.get_name());
    let mut operands = Vec::new();
    for arg in command.get_arguments().filter(|arg| !arg.is_hide_set()) {
        let placeholder = arg
            .get_value_names()
            .and_then(|names| names.first())
            .map(|name| name.to_string())
            .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
        if arg.is_positional() {
            operands.push(format!(" [\\fI{placeholder}\\fR]..."));
            continue;
        }
        let mut names = Vec::new();
        if let Some(short) = arg.get_short() {
            names.push(format!("\\fB\\-{short}\\fR"));
        }
        if let Some(long) = arg.get_long() {
            names.push(format!("\\fB\\-\\-{}\\fR", long.replace('-', "\\-")));
        }
        let takes = arg.get_action().takes_values();
        let value = match (
            takes,
            arg.get_num_args().is_some_and(|n| n.min_values() == 0),
        ) {
            (false, _) => String::new(),
            // `-i[SUFFIX]`: the value is optional.
            (true, true) => format!("[=\\fI{placeholder}\\fR]"),
            (true, false) => format!(" \\fI{placeholder}\\fR"),
        };
        line.push_str(&format!(" [{}{value}]", names.join("|")));
    }
    for operand in operands {
        line.push_str(&operand);
    }
    format!(".SH SYNOPSIS\n{line}\n")
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
    let man = clap_mangen::Man::new(command.clone()).date(MAN_DATE);
    let mut page = Vec::new();
    let rendered: std::io::Result<()> = (|| {
        man.render_title(&mut page)?;
        page.extend_from_slice(b".nh\n");
        man.render_name_section(&mut page)?;
        page.extend_from_slice(synopsis(&command).as_bytes());
        man.render_description_section(&mut page)?;
        man.render_options_section(&mut page)?;
        Ok(())
    })();
    rendered.expect("rendering into memory cannot fail");
    let mut page = String::from_utf8(page).expect("clap_mangen writes UTF-8");
    page = page.replace("\n.br\n\n.br\n", "\n.sp\n");
    page = page.replace("\\\\", "\\e");
    // The help text marks code with backticks, which a man page shows as they are: quotes.
    page = page.replace('`', "'");
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
             .TP\n\\fBTERM\\fR\nWhen dumb, \\-\\-color auto colours nothing.\n\
             .TP\n\\fBUTF8KIT_FORCE_IMPL\\fR\navx512, avx2 or portable: the highest instruction-set \
             level the SIMD kernels may use (read once at start), so that one machine measures \
             and tests every level it has; the output is the same at every level. A level the \
             processor lacks, or an unknown word, is refused: status 2.\n",
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

/// Prints what `kind` asks for `command` on standard output: the status to exit with (0, or 2
/// after a one-line message when standard output fails; a closed pipe is not a failure).
pub fn print(program: &str, kind: Generate, command: clap::Command) -> i32 {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(&generate(kind, command))
        .and_then(|()| out.flush());
    match written {
        Err(error) if !crate::output::is_broken_pipe(&error) => {
            eprintln!(
                "{program}: write error: {}",
                crate::input::io_reason(&error)
            );
            2
        }
        _ => 0,
    }
}
