//! `utf8dump`: show a byte stream unit by unit. See `utf8dump --help`.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = utf8kit::dump::Args::parse();
    utf8kit::output::finish("utf8dump", utf8kit::dump::run(&args))
}
