//! Matching a call's arguments to an op's parameters: by position and, where the op takes
//! them, by name; each mistake an [`OpError`] at the argument at fault. The macros and the
//! dispatcher both bind through here, so a call means the same on either side.

use super::sig::{ArgDefault, OpSig, Pass};
use super::value::OpError;

/// Where a binding error belongs: an argument by its index in the call, or the call.
pub type BindError<D> = (Option<usize>, OpError<D>);

/// For each parameter of `sig`, the index of the argument that gives it (`None`: not given,
/// its default applies). `names` holds each argument's keyword (`None` for a positional one),
/// in the call's order; `op` is the name errors give.
pub fn bind<D>(
    sig: &OpSig,
    op: &'static str,
    names: &[Option<&str>],
) -> Result<Vec<Option<usize>>, BindError<D>> {
    if !sig.keywords {
        if let Some(i) = names.iter().position(Option::is_some) {
            return Err((Some(i), OpError::NoKeywords { op }));
        }
        let (min, max, n) = (sig.required(), sig.params.len(), names.len());
        if n < min || n > max {
            let at = (n > max).then_some(max);
            return Err((
                at,
                OpError::Count {
                    op,
                    min,
                    max,
                    given: n,
                },
            ));
        }
        return Ok((0..max).map(|i| (i < n).then_some(i)).collect());
    }
    let positional: Vec<usize> = (0..names.len()).filter(|&i| names[i].is_none()).collect();
    let max = sig.positional();
    if positional.len() > max {
        return Err((Some(positional[max]), OpError::Positional { op, max }));
    }
    for (i, n) in names.iter().enumerate() {
        if let Some(n) = n
            && !sig
                .params
                .iter()
                .any(|p| p.name == *n && p.pass != Pass::Positional)
        {
            return Err((
                Some(i),
                OpError::UnknownKeyword {
                    op,
                    name: n.to_string(),
                    known: sig.keyword_names(),
                },
            ));
        }
    }
    let mut slots = vec![None; sig.params.len()];
    let mut next = positional.into_iter();
    for (k, p) in sig.params.iter().enumerate() {
        let by_pos = if p.pass == Pass::Keyword {
            None
        } else {
            next.next()
        };
        let mut by_name = (0..names.len()).filter(|&i| names[i] == Some(p.name));
        let named = by_name.next();
        if let Some(again) = by_name.next() {
            return Err((
                Some(again),
                OpError::Twice {
                    op,
                    name: p.name,
                    by_position: false,
                },
            ));
        }
        slots[k] = match (named, by_pos) {
            (Some(i), Some(_)) => {
                return Err((
                    Some(i),
                    OpError::Twice {
                        op,
                        name: p.name,
                        by_position: true,
                    },
                ));
            }
            (a, b) => a.or(b),
        };
        if slots[k].is_none() && p.default == ArgDefault::Required {
            return Err((
                None,
                OpError::Missing {
                    op,
                    name: p.name,
                    usage: sig.usage(),
                },
            ));
        }
    }
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::lookup;

    fn err(op: &str, names: &[Option<&str>]) -> (Option<usize>, String) {
        let sig = lookup(op).expect("an op");
        let (at, e) = bind::<usize>(sig, sig.name, names).expect_err("an error");
        (at, e.to_string())
    }

    #[test]
    fn positional_ops_count_their_arguments() {
        let sum = lookup("sum").expect("sum");
        assert_eq!(bind::<usize>(sum, "sum", &[None]), Ok(vec![Some(0), None]));
        assert_eq!(
            err("sum", &[None, None, None]),
            (Some(2), "`sum` takes 0 to 2 argument(s), 3 given".into())
        );
        assert_eq!(
            err("sum", &[Some("axis")]),
            (Some(0), "`sum` takes no keyword arguments".into())
        );
    }

    #[test]
    fn keyword_ops_bind_by_name_and_position() {
        let ce = lookup("cross_entropy").expect("cross_entropy");
        assert_eq!(
            bind::<usize>(ce, "cross_entropy", &[None, Some("label_smoothing")]),
            Ok(vec![Some(0), None, Some(1)])
        );
        assert_eq!(
            err("cross_entropy", &[None, Some("smoothing")]),
            (
                Some(1),
                "`cross_entropy` has no argument `smoothing`; it takes y, reduction, label_smoothing"
                    .into()
            )
        );
        assert_eq!(
            err("conv2d", &[None, Some("strides")]).1,
            "`conv2d` has no argument `strides`; it takes bias, stride, padding, dilation, groups"
        );
        assert_eq!(
            err("cross_entropy", &[None, Some("y")]),
            (
                Some(1),
                "`cross_entropy`: argument `y` is given by position and by name".into()
            )
        );
        assert!(
            err("cross_entropy", &[])
                .1
                .starts_with("`cross_entropy` needs `y`")
        );
        assert_eq!(
            err("conv2d", &[None, None, None]),
            (
                Some(2),
                "`conv2d` takes at most 2 positional argument(s)".into()
            )
        );
    }
}
