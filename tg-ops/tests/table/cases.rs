//! The cases the macros' shape rules were compared with tg-ops on (their former mirror
//! tests), as calls through the dispatcher: each a DSL expression and its call.

use super::*;

/// Runs every case.
#[rustfmt::skip]
pub fn run() {
    // a.einsum("ij,jk->ik", b)
    case(&[z(&[2, 3], F32), z(&[3, 4], F16)], |t| agree("einsum", &t[0], vec![p(s("ij,jk->ik")), p(ten(&t[1]))]));
    // a.einsum("ij,jk", b)
    case(&[z(&[2, 3], F32), z(&[3, 4], F16)], |t| agree("einsum", &t[0], vec![p(s("ij,jk")), p(ten(&t[1]))]));
    // a.einsum(" ij , jk -> ki ", b)
    case(&[z(&[2, 3], F32), z(&[3, 4], F16)], |t| agree("einsum", &t[0], vec![p(s(" ij , jk -> ki ")), p(ten(&t[1]))]));
    // a.einsum("bij,bjk->bik", b)
    case(&[z(&[5, 2, 3], F32), z(&[5, 3, 4], F32)], |t| agree("einsum", &t[0], vec![p(s("bij,bjk->bik")), p(ten(&t[1]))]));
    // a.einsum("ij->ji")
    case(&[z(&[2, 3], I8)], |t| agree("einsum", &t[0], vec![p(s("ij->ji"))]));
    // a.einsum("ii->")
    case(&[z(&[3, 3], I32)], |t| agree("einsum", &t[0], vec![p(s("ii->"))]));
    // a.einsum("ii")
    case(&[z(&[3, 3], F32)], |t| agree("einsum", &t[0], vec![p(s("ii"))]));
    // a.einsum("ii->i")
    case(&[z(&[3, 3], U8)], |t| agree("einsum", &t[0], vec![p(s("ii->i"))]));
    // a.einsum("iji->j")
    case(&[z(&[3, 2, 3], F32)], |t| agree("einsum", &t[0], vec![p(s("iji->j"))]));
    // a.einsum("i,j->ij", b)
    case(&[z(&[2], F32), z(&[3], I32)], |t| agree("einsum", &t[0], vec![p(s("i,j->ij")), p(ten(&t[1]))]));
    // a.einsum("ij->")
    case(&[z(&[2, 3], F16)], |t| agree("einsum", &t[0], vec![p(s("ij->"))]));
    // a.einsum("ij->j")
    case(&[z(&[2, 3], Bool)], |t| agree("einsum", &t[0], vec![p(s("ij->j"))]));
    // a.einsum("ba")
    case(&[z(&[2, 3], F32)], |t| agree("einsum", &t[0], vec![p(s("ba"))]));
    // a.einsum("i,i->", b)
    case(&[z(&[3], Bool), z(&[3], Bool)], |t| agree("einsum", &t[0], vec![p(s("i,i->")), p(ten(&t[1]))]));
    // a.einsum("i,ij,j->", m, a)
    case(&[z(&[2], F32), z(&[2, 2], F64)], |t| agree("einsum", &t[0], vec![p(s("i,ij,j->")), p(tens(&[&t[1], &t[0]]))]));
    // a.einsum("Ab,bC->CA", b)
    case(&[z(&[2, 3], F32), z(&[3, 4], F32)], |t| agree("einsum", &t[0], vec![p(s("Ab,bC->CA")), p(ten(&t[1]))]));
    // a.einsum("...ij->...ji")
    case(&[z(&[4, 2, 3], F32)], |t| agree("einsum", &t[0], vec![p(s("...ij->...ji"))]));
    // a.einsum("...ij,...jk->...ik", b)
    case(&[z(&[2, 1, 2, 3], F32), z(&[4, 3, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("...ij,...jk->...ik")), p(ten(&t[1]))]));
    // a.einsum("...ij,...jk", b)
    case(&[z(&[2, 1, 2, 3], F32), z(&[4, 3, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("...ij,...jk")), p(ten(&t[1]))]));
    // a.einsum("...i->i")
    case(&[z(&[4, 2, 3], F32)], |t| agree("einsum", &t[0], vec![p(s("...i->i"))]));
    // a.einsum("ij->...ij")
    case(&[z(&[2, 3], F32)], |t| agree("einsum", &t[0], vec![p(s("ij->...ij"))]));
    // a.einsum("")
    case(&[z(&[], F32)], |t| agree("einsum", &t[0], vec![p(s(""))]));
    // a.einsum("ij->i", acc = f64)
    case(&[z(&[2, 3], I32)], |t| agree("einsum", &t[0], vec![p(s("ij->i")), k("acc", d(F64))]));
    // a.einsum("ij,jk->ik", b)
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ij,jk->ik")), p(ten(&t[1]))]));
    // a.einsum("ij,jk->ik")
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ij,jk->ik"))]));
    // a.einsum("ij,j1->i", b)
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ij,j1->i")), p(ten(&t[1]))]));
    // a.einsum("ijk,kl", b)
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ijk,kl")), p(ten(&t[1]))]));
    // a.einsum("ij,kl->iz", b)
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ij,kl->iz")), p(ten(&t[1]))]));
    // a.einsum("ij,kl->ii", b)
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ij,kl->ii")), p(ten(&t[1]))]));
    // a.einsum("ii")
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ii"))]));
    // a.einsum("i...j...")
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("i...j..."))]));
    // a.einsum("ij->j->i")
    case(&[z(&[2, 3], F32), z(&[4, 5], F32)], |t| agree("einsum", &t[0], vec![p(s("ij->j->i"))]));
    // a.einsum("...i,...i", b)
    case(&[z(&[2, 3], F32), z(&[4, 3], F32)], |t| agree("einsum", &t[0], vec![p(s("...i,...i")), p(ten(&t[1]))]));
    // x.newton_schulz(steps = 1, params = [3.4445, -4.7750, 2.0315], eps = 1e-6)
    case(&[z(&[2, 3, 5], U8)], |t| agree("newton_schulz", &t[0], vec![k("steps", i(1)), k("params", floats(&[3.4445, -4.7750, 2.0315])), k("eps", f(1e-6))]));
    // x.newton_schulz(0, 1.0)
    case(&[z(&[5, 3], F64)], |t| agree("newton_schulz", &t[0], vec![p(i(0)), p(f(1.0))]));
    // x.newton_schulz(1, [])
    case(&[z(&[3, 3], F32)], |t| agree("newton_schulz", &t[0], vec![p(i(1)), p(ints(&[]))]));
    // x.keccak()
    case(&[z(&[2, 3], U8)], |t| agree("keccak", &t[0], vec![]));
    // x.keccak("sha3_256")
    case(&[z(&[4], F32)], |t| agree("keccak", &t[0], vec![p(s("sha3_256"))]));
    // x.keccak("sha3_224")
    case(&[z(&[2, 2, 3], I64)], |t| agree("keccak", &t[0], vec![p(s("sha3_224"))]));
    // x.keccak(cfg = "shake_128")
    case(&[z(&[5], Bool)], |t| agree("keccak", &t[0], vec![k("cfg", s("shake_128"))]));
    // x.keccak((136, 1))
    case(&[z(&[3], F16)], |t| agree("keccak", &t[0], vec![p(ints(&[136, 1]))]));
    // x.keccak([199, 6])
    case(&[z(&[3], U8)], |t| agree("keccak", &t[0], vec![p(ints(&[199, 6]))]));
    // x.keccak((200, 6))
    case(&[z(&[3], U8)], |t| agree("keccak", &t[0], vec![p(ints(&[200, 6]))]));
    // x.keccak((0, 6))
    case(&[z(&[3], U8)], |t| agree("keccak", &t[0], vec![p(ints(&[0, 6]))]));
    // x.keccak()
    case(&[z(&[], U8)], |t| agree("keccak", &t[0], vec![]));
    // x.hash()
    case(&[z(&[2, 3], F32)], |t| agree("hash", &t[0], vec![]));
    // x.hash()
    case(&[z(&[], I32)], |t| agree("hash", &t[0], vec![]));
    // a + b
    case(&[z(&[2, 1, 3], I8), z(&[4, 3], U8)], |t| agree("add", &t[0], vec![p(ten(&t[1]))]));
    // a * 2.5
    case(&[z(&[3], I32)], |t| agree("mul", &t[0], vec![p(f(2.5))]));
    // a / b
    case(&[z(&[3], I32), z(&[3], I32)], |t| agree("div", &t[0], vec![p(ten(&t[1]))]));
    // a < b
    case(&[z(&[2, 3], F16), z(&[3], F32)], |t| agree("lt", &t[0], vec![p(ten(&t[1]))]));
    // a + b
    case(&[z(&[2, 3], F32), z(&[2, 4], F32)], |t| agree("add", &t[0], vec![p(ten(&t[1]))]));
    // a ** 2
    case(&[z(&[5], F16)], |t| agree("pow", &t[0], vec![p(i(2))]));
    // a.maximum(b)
    case(&[z(&[2, 2], I16), z(&[2], U16)], |t| agree("maximum", &t[0], vec![p(ten(&t[1]))]));
    // a.exp()
    case(&[z(&[3], I32)], |t| agree("exp", &t[0], vec![]));
    // a.sigmoid()
    case(&[z(&[3], F16)], |t| agree("sigmoid", &t[0], vec![]));
    // a.relu()
    case(&[z(&[3], I8)], |t| agree("relu", &t[0], vec![]));
    // a.isnan()
    case(&[z(&[3], F32)], |t| agree("isnan", &t[0], vec![]));
    // a.cast(f16)
    case(&[z(&[2], I32)], |t| agree("cast", &t[0], vec![p(d(F16))]));
    // a.bitcast(i32)
    case(&[z(&[2], F32)], |t| agree("bitcast", &t[0], vec![p(d(I32))]));
    // a.bitcast(i64)
    case(&[z(&[2], F32)], |t| agree("bitcast", &t[0], vec![p(d(I64))]));
    // c.where_(a, b)
    case(&[z(&[2, 1], Bool), z(&[3], F32), z(&[2, 3], I32)], |t| agree("where_", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // a.leaky_relu(0.1)
    case(&[z(&[4], F32)], |t| agree("leaky_relu", &t[0], vec![p(f(0.1))]));
    // a.clamp(0.0, 1.0)
    case(&[z(&[4], F32)], |t| agree("clamp", &t[0], vec![p(f(0.0)), p(f(1.0))]));
    // a & b
    case(&[z(&[4], I32), z(&[4], U8)], |t| agree("bitwise_and", &t[0], vec![p(ten(&t[1]))]));
    // x.layernorm()
    case(&[z(&[2, 5], F32)], |t| agree("layernorm", &t[0], vec![]));
    // x.layernorm([1, 2], eps = 1e-6)
    case(&[z(&[2, 5, 3], F16)], |t| agree("layernorm", &t[0], vec![p(ints(&[1, 2])), k("eps", f(1e-6))]));
    // i.one_hot(5)
    case(&[z(&[2, 3], I32)], |t| agree("one_hot", &t[0], vec![p(i(5))]));
    // x.gather(1, i)
    case(&[z(&[2, 5], F32), z(&[2, 3], I32)], |t| agree("gather", &t[0], vec![p(i(1)), p(ten(&t[1]))]));
    // x.var()
    case(&[z(&[3, 4], I32)], |t| agree("var", &t[0], vec![]));
    // x.std(1, true, 0.0)
    case(&[z(&[3, 4], F16)], |t| agree("std", &t[0], vec![p(i(1)), p(b(true)), p(f(0.0))]));
    // x.logsumexp(-1)
    case(&[z(&[3, 4], F32)], |t| agree("logsumexp", &t[0], vec![p(i(-1))]));
    // x.softmax()
    case(&[z(&[3, 4], I8)], |t| agree("softmax", &t[0], vec![]));
    // x.log_softmax(0)
    case(&[z(&[3, 4], F64)], |t| agree("log_softmax", &t[0], vec![p(i(0))]));
    // x.normalize(1.0, 0)
    case(&[z(&[3, 4], F32)], |t| agree("normalize", &t[0], vec![p(f(1.0)), p(i(0))]));
    // x.cumsum(1)
    case(&[z(&[3, 4], I8)], |t| agree("cumsum", &t[0], vec![p(i(1))]));
    // x.cumsum(1)
    case(&[z(&[3, 4], F16)], |t| agree("cumsum", &t[0], vec![p(i(1))]));
    // x.cumprod(0)
    case(&[z(&[3, 4], I32)], |t| agree("cumprod", &t[0], vec![p(i(0))]));
    // x.logcumsumexp(1)
    case(&[z(&[3, 4], I32)], |t| agree("logcumsumexp", &t[0], vec![p(i(1))]));
    // x.argmax()
    case(&[z(&[3, 4], F32)], |t| agree("argmax", &t[0], vec![]));
    // x.argmin(1, true)
    case(&[z(&[3, 4], U8)], |t| agree("argmin", &t[0], vec![p(i(1)), p(b(true))]));
    // x.argsort(0, true)
    case(&[z(&[3, 4], F32)], |t| agree("argsort", &t[0], vec![p(i(0)), p(b(true))]));
    // x.var_mean(1)
    case(&[z(&[3, 4], F32)], |t| agree("var_mean", &t[0], vec![p(i(1))]));
    // x.cummax(1)
    case(&[z(&[3, 4], I16)], |t| agree("cummax", &t[0], vec![p(i(1))]));
    // x.sort()
    case(&[z(&[3, 5], F16)], |t| agree("sort", &t[0], vec![]));
    // x.topk(2, 0)
    case(&[z(&[3, 5], F32)], |t| agree("topk", &t[0], vec![p(i(2)), p(i(0))]));
    // x.rand_like()
    case(&[z(&[3, 4], F16)], |t| agree("rand_like", &t[0], vec![]));
    // x.randn_like()
    case(&[z(&[0, 2], F64)], |t| agree("randn_like", &t[0], vec![]));
    // x.rand_like()
    case(&[z(&[3], I32)], |t| agree("rand_like", &t[0], vec![]));
    // x.randn_like()
    case(&[z(&[3], Bool)], |t| agree("randn_like", &t[0], vec![]));
    // a.tril()
    case(&[z(&[3, 4], F32)], |t| agree("tril", &t[0], vec![]));
    // a.triu(1)
    case(&[z(&[3, 4], F32)], |t| agree("triu", &t[0], vec![p(i(1))]));
    // a.tril(-1)
    case(&[z(&[2, 3, 4], I8)], |t| agree("tril", &t[0], vec![p(i(-1))]));
    // a.triu(-7)
    case(&[z(&[0, 3], F16)], |t| agree("triu", &t[0], vec![p(i(-7))]));
    // a.tril(9)
    case(&[z(&[1, 1], U8)], |t| agree("tril", &t[0], vec![p(i(9))]));
    // a.triu()
    case(&[z(&[4], F32)], |t| agree("triu", &t[0], vec![]));
    // z.scatter(0, i, s)
    case(&[z(&[2, 3], I32), z(&[1, 3], I32), z(&[1, 3], I32)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(-1, i, s)
    case(&[z(&[2, 3], F32), z(&[2, 2], I64), z(&[3, 3], F32)], |t| agree("scatter", &t[0], vec![p(i(-1)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(1, i, s)
    case(&[z(&[2, 3], F32), z(&[2, 5], U8), z(&[2, 5], F32)], |t| agree("scatter", &t[0], vec![p(i(1)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(0, i, s)
    case(&[z(&[2, 3], F32), z(&[1, 4], I32), z(&[1, 4], F32)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(0, i, s)
    case(&[z(&[2, 3], F32), z(&[2, 3], I32), z(&[1, 3], F32)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(0, i, s)
    case(&[z(&[2, 3], F32), z(&[2, 3], F32), z(&[2, 3], F32)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(0, i, s)
    case(&[z(&[2, 3], F32), z(&[2, 3], I32), z(&[2, 3], F16)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(0, i, s)
    case(&[z(&[2, 3], F32), z(&[2], I32), z(&[2, 3], F32)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(2, i, s)
    case(&[z(&[2, 3], F32), z(&[2, 3], I32), z(&[2, 3], F32)], |t| agree("scatter", &t[0], vec![p(i(2)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(0, i, s)
    case(&[z(&[0, 3], F32), z(&[0, 3], I32), z(&[0, 3], F32)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(0, i, s)
    case(&[z(&[], F32), z(&[], I32), z(&[], F32)], |t| agree("scatter", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2]))]));
    // z.scatter(dim = 1, index = i, src = 2.5)
    case(&[z(&[2, 3], I8), z(&[2, 1], I32)], |t| agree("scatter", &t[0], vec![k("dim", i(1)), k("index", ten(&t[1])), k("src", f(2.5))]));
    // z.scatter_reduce(0, i, s, "amax")
    case(&[z(&[2, 3], F32), z(&[3, 3], I32), z(&[2, 3], F32)], |t| agree("scatter_reduce", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2])), p(s("amax"))]));
    // z.scatter_reduce(0, i, s, "amax")
    case(&[z(&[2, 3], F32), z(&[2, 3], I32), z(&[2, 3], I32)], |t| agree("scatter_reduce", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2])), p(s("amax"))]));
    // z.scatter_reduce(0, i, s, "sum")
    case(&[z(&[], I8), z(&[], I32), z(&[], I8)], |t| agree("scatter_reduce", &t[0], vec![p(i(0)), p(ten(&t[1])), p(ten(&t[2])), p(s("sum"))]));
    // x.masked_select_sized(m, 4)
    case(&[z(&[2, 3], F32), z(&[3], Bool)], |t| agree("masked_select_sized", &t[0], vec![p(ten(&t[1])), p(i(4))]));
    // x.masked_select_sized(m, 0, fill_value = -1)
    case(&[z(&[2, 3], I16), z(&[2, 1], Bool)], |t| agree("masked_select_sized", &t[0], vec![p(ten(&t[1])), p(i(0)), k("fill_value", i(-1))]));
    // x.masked_select_sized(mask = m, size = 7, fill_value = 1.5)
    case(&[z(&[2, 3], F16), z(&[2, 3], Bool)], |t| agree("masked_select_sized", &t[0], vec![k("mask", ten(&t[1])), k("size", i(7)), k("fill_value", f(1.5))]));
    // x.masked_select_sized(m, 2)
    case(&[z(&[0, 3], F32), z(&[1], Bool)], |t| agree("masked_select_sized", &t[0], vec![p(ten(&t[1])), p(i(2))]));
    // x.masked_select_sized(m, 2)
    case(&[z(&[2, 3], F32), z(&[2, 3], I32)], |t| agree("masked_select_sized", &t[0], vec![p(ten(&t[1])), p(i(2))]));
    // x.masked_select_sized(m, 2)
    case(&[z(&[2, 3], F32), z(&[4], Bool)], |t| agree("masked_select_sized", &t[0], vec![p(ten(&t[1])), p(i(2))]));
    // x.masked_select_sized(m, 2)
    case(&[z(&[2, 1], F32), z(&[2, 3], Bool)], |t| agree("masked_select_sized", &t[0], vec![p(ten(&t[1])), p(i(2))]));
    // x.masked_select_sized(m, 2)
    case(&[z(&[3], F32), z(&[1, 3], Bool)], |t| agree("masked_select_sized", &t[0], vec![p(ten(&t[1])), p(i(2))]));
    // x.nonzero_sized(2, -1)
    case(&[z(&[5], F32)], |t| agree("nonzero_sized", &t[0], vec![p(i(2)), p(i(-1))]));
    // x.nonzero_sized(size = 0)
    case(&[z(&[2, 2, 2], U8)], |t| agree("nonzero_sized", &t[0], vec![k("size", i(0))]));
    // x.nonzero_sized(4)
    case(&[z(&[], F32)], |t| agree("nonzero_sized", &t[0], vec![p(i(4))]));
    // x.nonzero_sized(4)
    case(&[z(&[0, 3], F32)], |t| agree("nonzero_sized", &t[0], vec![p(i(4))]));
    // p.binary_crossentropy(y)
    case(&[z(&[4, 3], F32), z(&[4, 3], F32)], |t| agree("binary_crossentropy", &t[0], vec![p(ten(&t[1]))]));
    // p.binary_crossentropy(y, reduction = "none")
    case(&[z(&[4, 1], F16), z(&[3], F32)], |t| agree("binary_crossentropy", &t[0], vec![p(ten(&t[1])), k("reduction", s("none"))]));
    // p.binary_crossentropy(y, "sum")
    case(&[z(&[1], I32), z(&[2, 5], I8)], |t| agree("binary_crossentropy", &t[0], vec![p(ten(&t[1])), p(s("sum"))]));
    // p.binary_crossentropy(y = y, reduction = "none")
    case(&[z(&[2, 3], F16), z(&[2, 3], Bool)], |t| agree("binary_crossentropy", &t[0], vec![k("y", ten(&t[1])), k("reduction", s("none"))]));
    // p.binary_crossentropy(y)
    case(&[z(&[2, 3], F32), z(&[2, 4], F32)], |t| agree("binary_crossentropy", &t[0], vec![p(ten(&t[1]))]));
    // x.binary_crossentropy_logits(y)
    case(&[z(&[4, 3], F32), z(&[4, 3], F32)], |t| agree("binary_crossentropy_logits", &t[0], vec![p(ten(&t[1]))]));
    // x.binary_crossentropy_logits(y, "none", w)
    case(&[z(&[4, 3], F16), z(&[4, 3], F16), z(&[3], F64)], |t| agree("binary_crossentropy_logits", &t[0], vec![p(ten(&t[1])), p(s("none")), p(ten(&t[2]))]));
    // x.binary_crossentropy_logits(y, pos_weight = w, reduction = "none")
    case(&[z(&[1, 3], F32), z(&[4, 1], U8), z(&[2, 1, 1], F32)], |t| agree("binary_crossentropy_logits", &t[0], vec![p(ten(&t[1])), k("pos_weight", ten(&t[2])), k("reduction", s("none"))]));
    // x.binary_crossentropy_logits(y, pos_weight = w, reduction = "sum")
    case(&[z(&[4, 3], F32), z(&[4, 3], F32), z(&[2], F32)], |t| agree("binary_crossentropy_logits", &t[0], vec![p(ten(&t[1])), k("pos_weight", ten(&t[2])), k("reduction", s("sum"))]));
    // x.sparse_categorical_crossentropy(y)
    case(&[z(&[4, 10], F32), z(&[4], I32)], |t| agree("sparse_categorical_crossentropy", &t[0], vec![p(ten(&t[1]))]));
    // x.sparse_categorical_crossentropy(y, -100, 0.1, "none")
    case(&[z(&[2, 3, 5], F16), z(&[2, 3], I64)], |t| agree("sparse_categorical_crossentropy", &t[0], vec![p(ten(&t[1])), p(i(-100)), p(f(0.1)), p(s("none"))]));
    // x.sparse_categorical_crossentropy(y, ignore_index = 1, label_smoothing = 1.0, reduction = "sum")
    case(&[z(&[1], I32), z(&[], U8)], |t| agree("sparse_categorical_crossentropy", &t[0], vec![p(ten(&t[1])), k("ignore_index", i(1)), k("label_smoothing", f(1.0)), k("reduction", s("sum"))]));
    // x.sparse_categorical_crossentropy(y)
    case(&[z(&[4, 10], F32), z(&[4], F32)], |t| agree("sparse_categorical_crossentropy", &t[0], vec![p(ten(&t[1]))]));
    // x.sparse_categorical_crossentropy(y)
    case(&[z(&[4, 10], F32), z(&[4, 10], I32)], |t| agree("sparse_categorical_crossentropy", &t[0], vec![p(ten(&t[1]))]));
    // x.sparse_categorical_crossentropy(y, label_smoothing = 1.5)
    case(&[z(&[4, 10], F32), z(&[4], I32)], |t| agree("sparse_categorical_crossentropy", &t[0], vec![p(ten(&t[1])), k("label_smoothing", f(1.5))]));
    // x.cross_entropy(y)
    case(&[z(&[4, 10], F32), z(&[4], I32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1]))]));
    // x.cross_entropy(y, label_smoothing = 0.2, reduction = "none")
    case(&[z(&[2, 5, 3, 3], F16), z(&[2, 3, 3], I16)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1])), k("label_smoothing", f(0.2)), k("reduction", s("none"))]));
    // x.cross_entropy(y, "sum", 0.0)
    case(&[z(&[7], F64), z(&[], I32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1])), p(s("sum")), p(f(0.0))]));
    // x.cross_entropy(y, reduction = "none")
    case(&[z(&[4, 1], F16), z(&[4, 1], F16)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1])), k("reduction", s("none"))]));
    // x.cross_entropy(y, reduction = "none")
    case(&[z(&[4, 3], F16), z(&[4, 3], I32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1])), k("reduction", s("none"))]));
    // x.cross_entropy(y)
    case(&[z(&[4, 3], I8), z(&[4, 3], F64)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1]))]));
    // x.cross_entropy(y)
    case(&[z(&[4, 3], F32), z(&[4, 5], F32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1]))]));
    // x.cross_entropy(y)
    case(&[z(&[4, 3], F32), z(&[3], I32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1]))]));
    // x.cross_entropy(y)
    case(&[z(&[4, 3], F32), z(&[4], F32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1]))]));
    // x.cross_entropy(y)
    case(&[z(&[], F32), z(&[], I32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1]))]));
    // x.cross_entropy(y, label_smoothing = -0.5)
    case(&[z(&[4, 3], F32), z(&[4], I32)], |t| agree("cross_entropy", &t[0], vec![p(ten(&t[1])), k("label_smoothing", f(-0.5))]));
    // x.nll_loss(y)
    case(&[z(&[4, 10], F32), z(&[4], I32)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1]))]));
    // x.nll_loss(y, w, -1, "none")
    case(&[z(&[2, 3, 4, 1], F16), z(&[2, 4, 1], I8), z(&[3], F32)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), p(i(-1)), p(s("none"))]));
    // x.nll_loss(y, weight = w, reduction = "sum")
    case(&[z(&[1, 1], F16), z(&[1], U8), z(&[1], F16)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1])), k("weight", ten(&t[2])), k("reduction", s("sum"))]));
    // x.nll_loss(y, ignore_index = 0)
    case(&[z(&[3, 2], F16), z(&[3], I64)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1])), k("ignore_index", i(0))]));
    // x.nll_loss(y, reduction = "sum")
    case(&[z(&[3, 2], I8), z(&[3], I16)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1])), k("reduction", s("sum"))]));
    // x.nll_loss(y, reduction = "none")
    case(&[z(&[3, 2], U8), z(&[3], I32)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1])), k("reduction", s("none"))]));
    // x.nll_loss(y)
    case(&[z(&[3, 2], I16), z(&[3], U8)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1]))]));
    // x.nll_loss(y, w)
    case(&[z(&[3, 2], F32), z(&[3], I32), z(&[3], F32)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.nll_loss(y)
    case(&[z(&[3], F32), z(&[], I32)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1]))]));
    // x.nll_loss(y)
    case(&[z(&[3, 2], F32), z(&[2], I32)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1]))]));
    // x.nll_loss(y)
    case(&[z(&[3, 2], F32), z(&[3], Bool)], |t| agree("nll_loss", &t[0], vec![p(ten(&t[1]))]));
    // x.batchnorm(m, v)
    case(&[z(&[2, 3, 4, 4], F32), z(&[3], F32), z(&[3], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.batchnorm(m, v, w, b)
    case(&[z(&[2, 3, 4], F16), z(&[3], F16), z(&[3], F32), z(&[3], F16), z(&[3], F64)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), p(ten(&t[3])), p(ten(&t[4]))]));
    // x.batchnorm(mean = m, invstd = v, bias = b, axis = [-1])
    case(&[z(&[2, 5], I32), z(&[5], I32), z(&[5], I8), z(&[5], I32)], |t| agree("batchnorm", &t[0], vec![k("mean", ten(&t[1])), k("invstd", ten(&t[2])), k("bias", ten(&t[3])), k("axis", ints(&[-1]))]));
    // x.batchnorm(m, v, axis = [1, 2])
    case(&[z(&[2, 3, 4], F32), z(&[12], F32), z(&[3, 4], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), k("axis", ints(&[1, 2]))]));
    // x.batchnorm(m, v, axis = [1, 2])
    case(&[z(&[2, 3, 4], F32), z(&[4, 3], F32), z(&[12], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), k("axis", ints(&[1, 2]))]));
    // x.batchnorm(m, v)
    case(&[z(&[2, 3, 1], F32), z(&[3], F32), z(&[1, 3, 5], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.batchnorm(m, v)
    case(&[z(&[2, 3, 1], F32), z(&[3], F32), z(&[4, 1, 3, 1], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.batchnorm(m, v)
    case(&[z(&[2, 3, 4], F32), z(&[3], F32), z(&[1, 2, 4], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.batchnorm(m, v, axis = [])
    case(&[z(&[2, 3], F32), z(&[], F32), z(&[], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), k("axis", ints(&[]))]));
    // x.batchnorm(m, v, axis = [1, -2])
    case(&[z(&[2, 3], F32), z(&[3], F32), z(&[3], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), k("axis", ints(&[1, -2]))]));
    // x.batchnorm(m, v, axis = 2)
    case(&[z(&[2, 3], F32), z(&[3], F32), z(&[3], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), k("axis", i(2))]));
    // x.batchnorm(m, v)
    case(&[z(&[2, 3], F32), z(&[4], F32), z(&[3], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.batchnorm(m, v, w)
    case(&[z(&[2, 3], F32), z(&[3], F32), z(&[3], F32), z(&[1], F32)], |t| agree("batchnorm", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), p(ten(&t[3]))]));
    // x.conv_transpose2d(w)
    case(&[z(&[2, 3, 5, 4], F32), z(&[3, 4, 3, 3], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1]))]));
    // x.conv_transpose2d(w, b, stride = 2, padding = 1, output_padding = 1)
    case(&[z(&[1, 4, 5, 5], F16), z(&[4, 2, 3, 3], F16), z(&[2], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), k("stride", i(2)), k("padding", i(1)), k("output_padding", i(1))]));
    // x.conv_transpose2d(weight = w, groups = 2, dilation = [2, 1], stride = [1, 3], padding = [(1, 0), (0, 2)])
    case(&[z(&[2, 4, 3, 4], F32), z(&[4, 3, 2, 3], F32)], |t| agree("conv_transpose2d", &t[0], vec![k("weight", ten(&t[1])), k("groups", i(2)), k("dilation", ints(&[2, 1])), k("stride", ints(&[1, 3])), k("padding", pairs(&[(1, 0), (0, 2)]))]));
    // x.conv_transpose2d(w, b, groups = 3)
    case(&[z(&[1, 3, 1, 1], I8), z(&[3, 1, 1, 1], I8), z(&[3], I32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), p(ten(&t[2])), k("groups", i(3))]));
    // x.conv_transpose2d(w, stride = 3)
    case(&[z(&[2, 1, 4], U8), z(&[1, 2, 2], I16)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), k("stride", i(3))]));
    // x.conv_transpose2d(w)
    case(&[z(&[1, 2, 3, 3, 3], F32), z(&[2, 1, 2, 2, 2], F64)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1]))]));
    // x.conv_transpose2d(w, padding = 1)
    case(&[z(&[1, 1, 1, 1], F32), z(&[1, 1, 1, 1], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), k("padding", i(1))]));
    // x.conv_transpose2d(w, padding = 1)
    case(&[z(&[1, 1, 2, 2], F32), z(&[1, 1, 2, 2], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), k("padding", i(1))]));
    // x.conv_transpose2d(w, padding = [(3, -3)], output_padding = 3)
    case(&[z(&[1, 1, 2], F32), z(&[1, 1, 1], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), k("padding", pairs(&[(3, -3)])), k("output_padding", i(3))]));
    // x.conv_transpose2d(w, padding = -1)
    case(&[z(&[1, 1, 2], F32), z(&[1, 1, 2], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), k("padding", i(-1))]));
    // x.conv_transpose2d(w)
    case(&[z(&[2, 3, 5, 4], F32), z(&[4, 4, 3, 3], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1]))]));
    // x.conv_transpose2d(w, groups = 2)
    case(&[z(&[2, 3, 5, 4], F32), z(&[3, 4, 3, 3], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), k("groups", i(2))]));
    // x.conv_transpose2d(w, b)
    case(&[z(&[2, 3, 5], F32), z(&[3, 4, 3], F32), z(&[3], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.conv_transpose2d(w)
    case(&[z(&[2, 3, 5], F32), z(&[3, 4, 3, 3], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1]))]));
    // x.conv_transpose2d(w)
    case(&[z(&[2, 3, 0], F32), z(&[3, 4, 3], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1]))]));
    // x.conv_transpose2d(w, stride = 0)
    case(&[z(&[2, 3, 4], F32), z(&[3, 4, 3], F32)], |t| agree("conv_transpose2d", &t[0], vec![p(ten(&t[1])), k("stride", i(0))]));
    // x.conv2d(w, b)
    case(&[z(&[1, 2, 4], I8), z(&[3, 2, 2], I8), z(&[3], F16)], |t| agree("conv2d", &t[0], vec![p(ten(&t[1])), p(ten(&t[2]))]));
    // x.interpolate([8, 6])
    case(&[z(&[2, 3, 4, 4], F32)], |t| agree("interpolate", &t[0], vec![p(ints(&[8, 6]))]));
    // x.interpolate(5, "linear", true)
    case(&[z(&[2, 3, 4], F16)], |t| agree("interpolate", &t[0], vec![p(i(5)), p(s("linear")), p(b(true))]));
    // x.interpolate(size = [1, 1], align_corners = true)
    case(&[z(&[1, 1, 4, 4], F32)], |t| agree("interpolate", &t[0], vec![k("size", ints(&[1, 1])), k("align_corners", b(true))]));
    // x.interpolate([3, 2, 7], "nearest")
    case(&[z(&[3, 1, 4], U8)], |t| agree("interpolate", &t[0], vec![p(ints(&[3, 2, 7])), p(s("nearest"))]));
    // x.interpolate([2], mode = "nearest-exact")
    case(&[z(&[4, 9], I32)], |t| agree("interpolate", &t[0], vec![p(ints(&[2])), k("mode", s("nearest-exact"))]));
    // x.interpolate([0, 3], mode = "linear")
    case(&[z(&[2, 0, 2], F32)], |t| agree("interpolate", &t[0], vec![p(ints(&[0, 3])), k("mode", s("linear"))]));
    // x.interpolate([1, 3])
    case(&[z(&[2, 0, 2], F32)], |t| agree("interpolate", &t[0], vec![p(ints(&[1, 3]))]));
    // x.interpolate([2, 2, 2])
    case(&[z(&[4, 4], F32)], |t| agree("interpolate", &t[0], vec![p(ints(&[2, 2, 2]))]));
    // x.interpolate([])
    case(&[z(&[4, 4], F32)], |t| agree("interpolate", &t[0], vec![p(ints(&[]))]));
    // x.interpolate([2], mode = "nearest", align_corners = true)
    case(&[z(&[4, 4], F32)], |t| agree("interpolate", &t[0], vec![p(ints(&[2])), k("mode", s("nearest")), k("align_corners", b(true))]));
    // x.max_pool2d_with_indices(2)
    case(&[z(&[2, 3, 8, 6], F32)], |t| agree("max_pool2d_with_indices", &t[0], vec![p(i(2))]));
    // x.max_pool2d_with_indices([3, 3], stride = 2, padding = 1, ceil_mode = true)
    case(&[z(&[1, 2, 7, 6], F16)], |t| agree("max_pool2d_with_indices", &t[0], vec![p(ints(&[3, 3])), k("stride", i(2)), k("padding", i(1)), k("ceil_mode", b(true))]));
    // x.max_pool2d_with_indices(kernel = [2], dilation = 2, stride = 1)
    case(&[z(&[3, 5], I8)], |t| agree("max_pool2d_with_indices", &t[0], vec![k("kernel", ints(&[2])), k("dilation", i(2)), k("stride", i(1))]));
    // x.max_pool2d_with_indices([1, 1])
    case(&[z(&[1, 1, 1, 1], Bool)], |t| agree("max_pool2d_with_indices", &t[0], vec![p(ints(&[1, 1]))]));
    // v.max_unpool2d(i)
    case(&[z(&[2, 3, 4, 3], F32), z(&[2, 3, 4, 3], I32)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1]))]));
    // v.max_unpool2d(i, [3, 2], stride = [2, 1], padding = 1, dilation = [1, 2])
    case(&[z(&[1, 2, 3, 4], F16), z(&[1, 2, 3, 4], I64)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1])), p(ints(&[3, 2])), k("stride", ints(&[2, 1])), k("padding", i(1)), k("dilation", ints(&[1, 2]))]));
    // v.max_unpool2d(indices = i, kernel = 3, output_size = [9, 9, 7])
    case(&[z(&[1, 1, 2, 2], I8), z(&[1, 1, 2, 2], I32)], |t| agree("max_unpool2d", &t[0], vec![k("indices", ten(&t[1])), k("kernel", i(3)), k("output_size", ints(&[9, 9, 7]))]));
    // v.max_unpool2d(i, 2)
    case(&[z(&[1, 1, 1], Bool), z(&[1, 1, 1], U8)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1])), p(i(2))]));
    // v.max_unpool2d(i, 3, padding = 2)
    case(&[z(&[1, 1, 1], F32), z(&[1, 1, 1], I32)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1])), p(i(3)), k("padding", i(2))]));
    // v.max_unpool2d(i)
    case(&[z(&[2, 3, 4, 3], F32), z(&[2, 3, 4, 2], I32)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1]))]));
    // v.max_unpool2d(i)
    case(&[z(&[2, 3, 4, 3], F32), z(&[2, 3, 4, 3], F32)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1]))]));
    // v.max_unpool2d(i, output_size = [5])
    case(&[z(&[2, 3, 4, 3], F32), z(&[2, 3, 4, 3], I32)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1])), k("output_size", ints(&[5]))]));
    // v.max_unpool2d(i, [2, 2, 2])
    case(&[z(&[2, 3, 4, 3], F32), z(&[2, 3, 4, 3], I32)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1])), p(ints(&[2, 2, 2]))]));
    // v.max_unpool2d(i)
    case(&[z(&[4, 3], F32), z(&[4, 3], I32)], |t| agree("max_unpool2d", &t[0], vec![p(ten(&t[1]))]));
}
