//! `utf8dump`: show a byte stream unit by unit. See `utf8dump --help`.

fn main() -> std::process::ExitCode {
    let args = utf8kit::cli::parse_args::<utf8kit::dump::Args>("utf8dump", std::env::args_os());
    utf8kit::dump::run(&args).into()
}
