//! A parsed CHECKPOINT.md as `checkpoint-read` and `session-resume` report it.

use aw_core::checkpoint::parse;
use serde_json::{Value, json};

/// The `checkpoint` object: the parsed fields with the reference's Spanish keys, then the raw
/// text.
pub fn model(path: &str, raw: &str) -> Value {
    let f = parse(raw);
    json!({
        "path": path,
        "actualizado": f.actualizado,
        "avance": f.avance,
        "ultimo": f.ultimo,
        "proximo": f.proximo,
        "decisiones": f.decisiones,
        "archivos": f.archivos,
        "contexto": f.contexto,
        "refs": f.refs,
        "raw": raw,
    })
}
