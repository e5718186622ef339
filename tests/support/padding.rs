//! The padding argument of the conv and pool fixtures, as `tg_ops::Padding`.

use serde_json::Value;
use tg_ops::Padding;

/// The `padding` argument of a conv or pool case (`{"kind": ..., "value": ...}`).
pub fn padding(v: &Value) -> Padding {
    let ints = |v: &Value| -> Vec<isize> {
        v.as_array()
            .expect("list")
            .iter()
            .map(|x| x.as_i64().expect("int") as isize)
            .collect()
    };
    let value = &v["value"];
    match v["kind"].as_str().expect("padding kind") {
        "uniform" => Padding::Uniform(value.as_i64().expect("int") as isize),
        "per_axis" => Padding::PerAxis(ints(value)),
        "flat" => Padding::Flat(ints(value)),
        "pairs" => Padding::Pairs(
            value
                .as_array()
                .expect("pairs")
                .iter()
                .map(|p| (ints(p)[0], ints(p)[1]))
                .collect(),
        ),
        k => panic!("unknown padding kind {k}"),
    }
}
