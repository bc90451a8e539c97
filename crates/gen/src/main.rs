//! Writes `man/` and `completions/` from the clap definitions: `cargo run -p utf8kit-gen`.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for file in utf8kit_gen::render() {
        let path = root.join(&file.path);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &file.contents));
        if let Err(error) = written {
            eprintln!("utf8kit-gen: {}: {error}", file.path);
            return ExitCode::from(2);
        }
        println!("{}", file.path);
    }
    ExitCode::SUCCESS
}
