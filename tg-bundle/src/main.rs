//! `tg-bundle`: makes and inspects SPIR-V bundles, the kernels a build of tg without shaderc runs.
//!
//! ```text
//! tg-bundle record OUT -- COMMAND [ARGS...]   run COMMAND with TG_BUNDLE_RECORD=OUT
//! tg-bundle list FILE                         one line per kernel: key, SPIR-V words, name
//! tg-bundle merge OUT IN...                   OUT gets every kernel of the INs (and its own)
//! ```
//!
//! `record` is a thin wrapper so a build script or CI step says what it means; the recording
//! itself is tg's (`tg_runtime::bundle`), in the recorded process. Run the program on a device
//! with the features of the target (its GLSL is rendered for the device it runs on).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use tg_runtime::bundle::Bundle;

const USAGE: &str = "usage:
  tg-bundle record OUT -- COMMAND [ARGS...]
  tg-bundle list FILE
  tg-bundle merge OUT IN...";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("record") => record(&args[1..]),
        Some("list") if args.len() == 2 => list(Path::new(&args[1])),
        Some("merge") if args.len() >= 3 => merge(Path::new(&args[1]), &args[2..]),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tg-bundle: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The bundle at `path`, or an empty one when there is no file yet.
fn open_or_empty(path: &Path) -> Result<Bundle, String> {
    if path.exists() {
        Bundle::from_file(path).map_err(|e| e.to_string())
    } else {
        Ok(Bundle::new())
    }
}

fn record(args: &[String]) -> Result<(), String> {
    let [out, dashes, command @ ..] = args else {
        return Err(USAGE.into());
    };
    if dashes != "--" || command.is_empty() {
        return Err(USAGE.into());
    }
    // Absolute, so a command that changes folder (cargo test runs in the package's) records
    // into the same file.
    let out = std::path::absolute(PathBuf::from(out)).map_err(|e| format!("{out}: {e}"))?;
    let before = open_or_empty(&out)?.len();
    let status = Command::new(&command[0])
        .args(&command[1..])
        .env("TG_BUNDLE_RECORD", &out)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", command[0]))?;
    if !status.success() {
        return Err(format!(
            "{} failed ({status}); the bundle keeps what it recorded",
            command[0]
        ));
    }
    let after = open_or_empty(&out)?.len();
    println!(
        "tg-bundle: {} holds {after} kernel(s), {} new",
        out.display(),
        after - before
    );
    Ok(())
}

fn list(path: &Path) -> Result<(), String> {
    let bundle = Bundle::from_file(path).map_err(|e| e.to_string())?;
    println!(
        "{}: format {}, {} kernel(s)",
        path.display(),
        tg_runtime::bundle::VERSION,
        bundle.len()
    );
    for (key, entry) in bundle.entries() {
        println!("{key:032x} {:>7} {}", entry.words.len(), entry.name);
    }
    Ok(())
}

fn merge(out: &Path, inputs: &[String]) -> Result<(), String> {
    let mut bundle = open_or_empty(out)?;
    for input in inputs {
        bundle.merge(Bundle::from_file(Path::new(input)).map_err(|e| e.to_string())?);
    }
    bundle.write(out).map_err(|e| e.to_string())?;
    println!(
        "tg-bundle: {} holds {} kernel(s)",
        out.display(),
        bundle.len()
    );
    Ok(())
}
