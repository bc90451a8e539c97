//! `utf8enc`: code points in every notation; transcoding to and from UTF-8. See `utf8enc --help`.

fn main() -> std::process::ExitCode {
    let args = utf8kit::cli::parse_args::<utf8kit::enc::Args>("utf8enc", std::env::args_os());
    utf8kit::enc::run(&args).into()
}
