//! `utf8fix`: repair ill-formed or mis-encoded UTF-8. See `utf8fix --help`.

fn main() -> std::process::ExitCode {
    let args = utf8kit::fix::Args::parse_with_attached_suffix();
    utf8kit::fix::run(&args).into()
}
