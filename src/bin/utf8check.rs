//! `utf8check`: validate UTF-8 and report every ill-formed sequence. See `utf8check --help`.

fn main() -> std::process::ExitCode {
    let args = utf8kit::cli::parse_args::<utf8kit::check::Args>("utf8check", std::env::args_os());
    utf8kit::check::run(&args).into()
}
