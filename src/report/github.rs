//! `--format github`: GitHub Actions workflow commands, escaped as the runner unescapes them.

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
