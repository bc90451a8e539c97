//! `utf8check`: validate UTF-8 and report every ill-formed sequence. See `utf8check --help`.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = utf8kit::check::Args::parse();
    utf8kit::output::finish("utf8check", utf8kit::check::run(&args))
}
