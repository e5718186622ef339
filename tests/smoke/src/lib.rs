//! The bundle the smoke tests run from, embedded the way an application embeds its own: the
//! file is made on the build machine and compiled into the binary with `include_bytes!`, so the
//! target needs neither shaderc nor the file.

use std::sync::OnceLock;

use tg::runtime::bundle::{self, Bundle};

/// The embedded bundle's bytes (empty when the crate was built without `TG_SMOKE_BUNDLE`).
pub static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/smoke.tgb"));

/// Installs [`EMBEDDED`] once per process and returns how many kernels it holds (0 when
/// nothing is embedded). A damaged bundle is an error, and so is an empty one in a build
/// without the compiler, which could run nothing.
pub fn install_embedded() -> tg::runtime::Result<usize> {
    static INSTALLED: OnceLock<tg::runtime::Result<usize>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            if EMBEDDED.is_empty() {
                return if tg::runtime::compile::HAS_COMPILER {
                    Ok(0)
                } else {
                    Err(tg::runtime::Error::BundleInvalid {
                        origin: "tg-smoke".into(),
                        reason: "built without the compiler and without TG_SMOKE_BUNDLE".into(),
                    })
                };
            }
            let b = Bundle::from_bytes(EMBEDDED, "tg-smoke's embedded bundle")?;
            let n = b.len();
            bundle::install(b);
            Ok(n)
        })
        .clone()
}
