pub use tg_ops;
pub use tg_runtime;
