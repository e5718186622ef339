pub use tg_runtime; pub use tg_ops;
