//! The tokenizer a GGUF file describes (`tokenizer.ggml.*`): SentencePiece-style vocabularies
//! (`model = "llama"`: pieces with scores, `\u{2581}` for a space, byte fallback tokens
//! `<0xNN>`) merged by score, and GPT-2-style byte-level BPE (`model = "gpt2"`: merges by
//! rank over bytes mapped to printable characters, after a split into words).

use std::collections::HashMap;

use crate::{Error, GgufFile, Result};

/// SentencePiece's space.
const SPACE: char = '\u{2581}';

/// Which algorithm the vocabulary is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// SentencePiece-style: merges by score.
    SentencePiece,
    /// GPT-2-style byte-level BPE: merges by rank.
    Bpe,
}

/// A token's type (`tokenizer.ggml.token_type`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TokenType {
    Normal,
    Unknown,
    Control,
    UserDefined,
    Unused,
    Byte,
}

/// A tokenizer read from a GGUF file's metadata.
pub struct Tokenizer {
    kind: Kind,
    tokens: Vec<String>,
    scores: Vec<f32>,
    types: Vec<TokenType>,
    index: HashMap<String, u32>,
    merges: HashMap<(String, String), usize>,
    bytes: [Option<u32>; 256],
    /// The beginning-of-sequence token, if the vocabulary has one.
    pub bos: Option<u32>,
    /// The end-of-sequence token, if the vocabulary has one.
    pub eos: Option<u32>,
    unk: Option<u32>,
    add_bos: bool,
    add_space_prefix: bool,
}

fn tok_err(message: String) -> Error {
    Error::Tokenizer { message }
}

/// GPT-2's map of bytes to printable characters (printable ASCII and Latin-1 stand for
/// themselves, the rest are shifted past 255).
fn byte_chars() -> [char; 256] {
    let mut out = ['\0'; 256];
    let mut n = 0u32;
    for b in 0..256u32 {
        let printable =
            (33..=126).contains(&b) || (161..=172).contains(&b) || (174..=255).contains(&b);
        out[b as usize] = if printable {
            char::from_u32(b).unwrap_or('?')
        } else {
            n += 1;
            char::from_u32(255 + n).unwrap_or('?')
        };
    }
    out
}

impl Tokenizer {
    /// Reads the vocabulary; a missing or malformed key is an error naming it.
    pub fn from_file(file: &GgufFile) -> Result<Tokenizer> {
        Tokenizer::from_metadata(file.metadata())
    }

    /// Reads the vocabulary from metadata (`tokenizer.ggml.*`).
    pub fn from_metadata(m: &crate::Metadata) -> Result<Tokenizer> {
        let kind = match m.str("tokenizer.ggml.model")? {
            "llama" => Kind::SentencePiece,
            "gpt2" => Kind::Bpe,
            other => {
                return Err(Error::Unsupported {
                    what: format!("tokenizer model {other:?} (llama and gpt2 are supported)"),
                });
            }
        };
        let bad = |key: &str, message: String| Error::BadValue {
            key: key.into(),
            message,
        };
        let tokens: Vec<String> = m
            .array("tokenizer.ggml.tokens")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| bad("tokenizer.ggml.tokens", "an item is not a string".into()))
            })
            .collect::<Result<_>>()?;
        let n = tokens.len();
        let scores = match m.get("tokenizer.ggml.scores") {
            None => vec![0.0; n],
            Some(_) => m
                .array("tokenizer.ggml.scores")?
                .iter()
                .map(|v| {
                    v.as_f64().map(|f| f as f32).ok_or_else(|| {
                        bad("tokenizer.ggml.scores", "an item is not a number".into())
                    })
                })
                .collect::<Result<_>>()?,
        };
        let types = match m.get("tokenizer.ggml.token_type") {
            None => vec![TokenType::Normal; n],
            Some(_) => m
                .array("tokenizer.ggml.token_type")?
                .iter()
                .map(|v| match v.as_i64() {
                    Some(1) => Ok(TokenType::Normal),
                    Some(2) => Ok(TokenType::Unknown),
                    Some(3) => Ok(TokenType::Control),
                    Some(4) => Ok(TokenType::UserDefined),
                    Some(5) => Ok(TokenType::Unused),
                    Some(6) => Ok(TokenType::Byte),
                    _ => Err(bad(
                        "tokenizer.ggml.token_type",
                        format!("unknown token type {v}"),
                    )),
                })
                .collect::<Result<_>>()?,
        };
        if scores.len() != n || types.len() != n {
            return Err(bad(
                "tokenizer.ggml.scores",
                format!(
                    "{} scores and {} types for {n} tokens",
                    scores.len(),
                    types.len()
                ),
            ));
        }
        let index: HashMap<String, u32> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let mut merges = HashMap::new();
        if kind == Kind::Bpe {
            for (rank, v) in m.array("tokenizer.ggml.merges")?.iter().enumerate() {
                let s = v.as_str().ok_or_else(|| {
                    bad("tokenizer.ggml.merges", "an item is not a string".into())
                })?;
                let (a, b) = s.split_once(' ').ok_or_else(|| {
                    bad("tokenizer.ggml.merges", format!("{s:?} is not two tokens"))
                })?;
                merges.entry((a.to_string(), b.to_string())).or_insert(rank);
            }
        }
        let mut bytes = [None; 256];
        let chars = byte_chars();
        for (b, slot) in bytes.iter_mut().enumerate() {
            *slot = match kind {
                Kind::SentencePiece => index.get(&format!("<0x{b:02X}>")).copied(),
                Kind::Bpe => index.get(&chars[b].to_string()).copied(),
            };
        }
        let id = |key: &str| -> Result<Option<u32>> {
            match m.get(key) {
                None => Ok(None),
                Some(_) => {
                    let v = m.usize(key)?;
                    if v >= n {
                        return Err(bad(key, format!("token {v} is past the vocabulary ({n})")));
                    }
                    Ok(Some(v as u32))
                }
            }
        };
        let flag = |key: &str, default: bool| match m.get(key) {
            Some(crate::Value::Bool(b)) => *b,
            _ => default,
        };
        Ok(Tokenizer {
            kind,
            bos: id("tokenizer.ggml.bos_token_id")?,
            eos: id("tokenizer.ggml.eos_token_id")?,
            unk: id("tokenizer.ggml.unknown_token_id")?,
            add_bos: flag("tokenizer.ggml.add_bos_token", kind == Kind::SentencePiece),
            add_space_prefix: flag(
                "tokenizer.ggml.add_space_prefix",
                kind == Kind::SentencePiece,
            ),
            tokens,
            scores,
            types,
            index,
            merges,
            bytes,
        })
    }

    /// The algorithm.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The vocabulary size.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether the vocabulary is empty.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The token ids of `text`, with the beginning-of-sequence token first where the file asks
    /// for it.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>> {
        let mut out = Vec::new();
        if self.add_bos {
            out.extend(self.bos);
        }
        match self.kind {
            Kind::SentencePiece => self.encode_spm(text, &mut out)?,
            Kind::Bpe => {
                for word in split_words(text) {
                    self.encode_bpe_word(word, &mut out)?;
                }
            }
        }
        Ok(out)
    }

    fn fallback(&self, piece: &str, out: &mut Vec<u32>) -> Result<()> {
        for b in piece.bytes() {
            match self.bytes[b as usize].or(self.unk) {
                Some(id) => out.push(id),
                None => {
                    return Err(tok_err(format!(
                        "byte {b:#04x} has no token and the vocabulary no unknown token"
                    )));
                }
            }
        }
        Ok(())
    }

    fn encode_spm(&self, text: &str, out: &mut Vec<u32>) -> Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        let mut norm = String::new();
        if self.add_space_prefix {
            norm.push(SPACE);
        }
        norm.extend(text.chars().map(|c| if c == ' ' { SPACE } else { c }));
        let mut sym: Vec<String> = norm.chars().map(|c| c.to_string()).collect();
        // the adjacent pair whose union is the best-scored piece merges first
        merge_pairs(&mut sym, |a, b| {
            let id = *self.index.get(&format!("{a}{b}"))?;
            Some(-self.scores[id as usize])
        });
        for s in sym {
            match self.index.get(&s) {
                Some(&id) => out.push(id),
                None => self.fallback(&s, out)?,
            }
        }
        Ok(())
    }

    fn encode_bpe_word(&self, word: &str, out: &mut Vec<u32>) -> Result<()> {
        let chars = byte_chars();
        let mut sym: Vec<String> = word
            .bytes()
            .map(|b| chars[b as usize].to_string())
            .collect();
        // the pair of the lowest-ranked merge merges first
        merge_pairs(&mut sym, |a, b| {
            self.merges
                .get(&(a.to_string(), b.to_string()))
                .map(|&r| r as f32)
        });
        for s in sym {
            match self.index.get(&s) {
                Some(&id) => out.push(id),
                None => {
                    // a symbol without a token: its bytes one by one
                    for c in s.chars() {
                        let b = chars.iter().position(|&x| x == c).unwrap_or(0);
                        match self.bytes[b].or(self.unk) {
                            Some(id) => out.push(id),
                            None => return Err(tok_err(format!("{s:?} has no token"))),
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The bytes token `id` stands for (control tokens: none). Bytes, not text: a character
    /// may span tokens.
    pub fn token_bytes(&self, id: u32) -> Result<Vec<u8>> {
        let i = id as usize;
        let piece = self.tokens.get(i).ok_or_else(|| {
            tok_err(format!(
                "token id {id} is past the vocabulary ({})",
                self.tokens.len()
            ))
        })?;
        Ok(match (self.kind, self.types[i]) {
            (_, TokenType::Control | TokenType::Unknown | TokenType::Unused) => Vec::new(),
            (Kind::SentencePiece, TokenType::Byte) => {
                let hex = piece.trim_start_matches("<0x").trim_end_matches('>');
                vec![
                    u8::from_str_radix(hex, 16)
                        .map_err(|_| tok_err(format!("byte token {piece:?}")))?,
                ]
            }
            (Kind::SentencePiece, _) => piece.replace(SPACE, " ").into_bytes(),
            (Kind::Bpe, _) => {
                let chars = byte_chars();
                piece
                    .chars()
                    .map(|c| chars.iter().position(|&x| x == c).map(|b| b as u8))
                    .collect::<Option<Vec<u8>>>()
                    .unwrap_or_else(|| piece.clone().into_bytes())
            }
        })
    }

    /// The text of `ids` (invalid UTF-8 replaced), without the space SentencePiece adds in
    /// front.
    pub fn decode(&self, ids: &[u32]) -> Result<String> {
        let mut bytes = Vec::new();
        for &id in ids {
            bytes.extend(self.token_bytes(id)?);
        }
        let mut s = String::from_utf8_lossy(&bytes).into_owned();
        if self.kind == Kind::SentencePiece && self.add_space_prefix && s.starts_with(' ') {
            s.remove(0);
        }
        Ok(s)
    }

    /// The piece of token `id` as the vocabulary spells it.
    pub fn piece(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(String::as_str)
    }
}

/// Merges adjacent symbols while some pair has a cost (`cost(left, right)`, `None`: the pair
/// does not merge): the cheapest pair first, the leftmost among equals. SentencePiece's
/// merges by score and BPE's by rank are this loop with two costs.
fn merge_pairs(sym: &mut Vec<String>, cost: impl Fn(&str, &str) -> Option<f32>) {
    loop {
        let mut best: Option<(f32, usize)> = None;
        for i in 0..sym.len().saturating_sub(1) {
            if let Some(c) = cost(&sym[i], &sym[i + 1])
                && best.is_none_or(|(b, _)| c < b)
            {
                best = Some((c, i));
            }
        }
        let Some((_, i)) = best else { break };
        let right = sym.remove(i + 1);
        sym[i].push_str(&right);
    }
}

/// GPT-2's split into words before merging: a word is an optional leading space and a run of
/// letters, or of digits, or of other non-space characters; runs of spaces stay apart
/// (contractions such as `'s` are not split off: tg's one simplification of the pattern).
fn split_words(text: &str) -> Vec<&str> {
    #[derive(PartialEq, Clone, Copy)]
    enum Class {
        Letter,
        Digit,
        Space,
        Other,
    }
    let class = |c: char| {
        if c.is_alphabetic() {
            Class::Letter
        } else if c.is_numeric() {
            Class::Digit
        } else if c.is_whitespace() {
            Class::Space
        } else {
            Class::Other
        }
    };
    let idx: Vec<(usize, char)> = text.char_indices().collect();
    let mut words = Vec::new();
    let mut i = 0;
    while i < idx.len() {
        let start = idx[i].0;
        let mut j = i;
        // a single space joins the word after it
        if idx[j].1 == ' ' && j + 1 < idx.len() && class(idx[j + 1].1) != Class::Space {
            j += 1;
        }
        let c = class(idx[j].1);
        j += 1;
        while j < idx.len() && class(idx[j].1) == c {
            // a run of spaces leaves its last one to the next word
            if c == Class::Space && j + 1 < idx.len() && class(idx[j + 1].1) != Class::Space {
                break;
            }
            j += 1;
        }
        let end = if j < idx.len() { idx[j].0 } else { text.len() };
        words.push(&text[start..end]);
        i = j;
    }
    words
}

#[cfg(test)]
mod tests {
    use super::split_words;

    #[test]
    fn words_split_as_gpt2_splits_them() {
        assert_eq!(
            split_words("Hello world, 123 go!"),
            vec!["Hello", " world", ",", " 123", " go", "!"]
        );
        assert_eq!(split_words("a  b"), vec!["a", " ", " b"]);
        assert_eq!(split_words(""), Vec::<&str>::new());
    }
}
