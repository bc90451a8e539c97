//! `utf8enc`: code points in every notation; transcoding to and from UTF-8. See `utf8enc --help`.

use clap::Parser;

fn main() -> std::process::ExitCode {
    let args = utf8kit::enc::Args::parse();
    utf8kit::output::finish("utf8enc", utf8kit::enc::run(&args))
}
