//! Growing and cutting axes: `pad` in each mode (`(before, after)` per axis, a negative amount
//! cuts), torch's flat pad form, `shrink`, `pad_to`, `shrink_to`.

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::{RuleError, argument_error, shape_error};

use super::{overflow, show, show_target};

/// How the new elements of a pad are filled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PadMode {
    /// One value.
    Constant,
    /// The axis mirrored without its edge element (pads smaller than the axis).
    Reflect,
    /// The edge element repeated (the axis nonempty).
    Replicate,
    /// The axis wrapped around (at most once).
    Circular,
}

impl PadMode {
    /// Every mode, in the order of [`PadMode::NAMES`].
    pub const ALL: [PadMode; 4] = [
        PadMode::Constant,
        PadMode::Reflect,
        PadMode::Replicate,
        PadMode::Circular,
    ];
    /// tinygrad's `mode=` strings.
    pub const NAMES: [&'static str; 4] = ["constant", "reflect", "replicate", "circular"];

    /// The mode's name.
    pub fn name(self) -> &'static str {
        PadMode::NAMES[self as usize]
    }

    /// The mode named `name`.
    pub fn from_name(name: &str) -> Option<PadMode> {
        PadMode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The padded shape for `(before, after)` pairs in `mode`: cuts (negative pads) no longer than
/// the axis, reflect pads shorter than it, replicate from a nonempty axis, circular pads
/// wrapping at most once.
pub fn pad<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    pads: &[(isize, isize)],
    mode: PadMode,
) -> Result<Vec<D>, RuleError<D>> {
    if pads.len() != shape.len() {
        return Err(RuleError::RankMismatch {
            op,
            what: "(before, after) pairs",
            given: pads.len(),
            shape: shape.to_vec(),
        });
    }
    let mut out = Vec::with_capacity(shape.len());
    for (i, (d, &(b, a))) in shape.iter().zip(pads).enumerate() {
        let (b, a) = (b as i64, a as i64);
        let too_big = || argument_error(op, format!("pads ({b}, {a}) are out of range"));
        let cut_n = (-b).max(0).checked_add((-a).max(0)).ok_or_else(too_big)?;
        let grow = b.max(0).max(a.max(0));
        let lit = |n: i64| usize::try_from(n).map(D::lit).map_err(|_| too_big());
        let cut = lit(cut_n)?;
        let cut_error = |n: &D| {
            let n = n.clone();
            move || {
                shape_error(
                    op,
                    format!(
                        "pads ({b}, {a}) cut {cut_n} elements from axis {i} of size {n} ({})",
                        show(shape)
                    ),
                )
            }
        };
        match mode {
            PadMode::Constant => {
                if cut_n > 0 {
                    ck.at_most(&cut, d, cut_error(d))?;
                }
            }
            PadMode::Circular => {
                if cut_n > 0 {
                    ck.at_most(&cut, d, cut_error(d))?;
                }
                let rest = d.offset(-cut_n).ok_or_else(cut_error(d))?;
                ck.at_most(&lit(grow)?, &rest, || {
                    argument_error(
                        op,
                        format!(
                            "circular pads ({b}, {a}) wrap around axis {i} of size {rest} more than once ({})",
                            show(shape)
                        ),
                    )
                })?;
            }
            PadMode::Reflect | PadMode::Replicate => {
                if grow > 0 {
                    let (need, what) = if mode == PadMode::Reflect {
                        (grow + 1, "reflect pads must be smaller than")
                    } else {
                        (1, "replicate pads need a nonempty")
                    };
                    ck.at_most(&lit(need)?, d, || {
                        argument_error(
                            op,
                            format!(
                                "{what} axis {i} (pads ({b}, {a}), axis size {d}, shape {})",
                                show(shape)
                            ),
                        )
                    })?;
                }
                if cut_n > 0 {
                    let full = d
                        .offset(b.max(0) + a.max(0))
                        .ok_or_else(|| overflow(op, shape))?;
                    ck.at_most(&cut, &full, cut_error(&full))?;
                }
            }
        }
        let total = b.checked_add(a).ok_or_else(too_big)?;
        // the cut fits (checked above), so only an overflow is left
        out.push(d.offset(total).ok_or_else(|| overflow(op, shape))?);
    }
    Ok(out)
}

/// torch's flat pad form (`[last_before, last_after, second_last_before, ...]`, pairs from the
/// last axis backwards, axes not named not padded) as one pair per axis.
pub fn group_flat_pads<D: Dim>(
    op: &'static str,
    shape: &[D],
    flat: &[isize],
) -> Result<Vec<(isize, isize)>, RuleError<D>> {
    let rank = shape.len();
    if !flat.len().is_multiple_of(2) || flat.len() > 2 * rank {
        return Err(argument_error(
            op,
            format!(
                "flat pads {flat:?} must be (before, after) pairs, at most one per axis of {}",
                show(shape)
            ),
        ));
    }
    let mut grouped = vec![(0, 0); rank];
    for (i, pair) in flat.chunks(2).enumerate() {
        grouped[rank - 1 - i] = (pair[0], pair[1]);
    }
    Ok(grouped)
}

/// `shrink`: `start..end` of each axis.
pub fn shrink<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    ranges: &[(isize, isize)],
) -> Result<Vec<D>, RuleError<D>> {
    if ranges.len() != shape.len() {
        return Err(RuleError::RankMismatch {
            op,
            what: "ranges",
            given: ranges.len(),
            shape: shape.to_vec(),
        });
    }
    let mut out = Vec::with_capacity(shape.len());
    for (i, (d, &(s, e))) in shape.iter().zip(ranges).enumerate() {
        let bad = || {
            shape_error(
                op,
                format!(
                    "range {s}..{e} does not fit axis {i} of size {d} ({})",
                    show(shape)
                ),
            )
        };
        if s < 0 || e < s {
            return Err(bad());
        }
        ck.at_most(&D::lit(e as usize), d, bad)?;
        out.push(D::lit((e - s) as usize));
    }
    Ok(out)
}

/// `pad_to` (`grow`) or `shrink_to`: each axis to its target size (`None` keeps it), which may
/// only grow or only shrink it.
pub fn resize_to<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    target: &[Option<D>],
    grow: bool,
) -> Result<Vec<D>, RuleError<D>> {
    if target.len() != shape.len() {
        return Err(RuleError::RankMismatch {
            op,
            what: "target sizes",
            given: target.len(),
            shape: shape.to_vec(),
        });
    }
    let mut out = Vec::with_capacity(shape.len());
    for (i, (d, t)) in shape.iter().zip(target).enumerate() {
        let Some(t) = t else {
            out.push(d.clone());
            continue;
        };
        let error = || {
            let (how, than) = if grow {
                ("grow", "more")
            } else {
                ("shrink", "less")
            };
            shape_error(
                op,
                format!(
                    "cannot {how} {} to {}: axis {i} is {d}, {than} than {t}",
                    show(shape),
                    show_target(target)
                ),
            )
        };
        if grow {
            ck.at_most(d, t, error)?;
        } else {
            ck.at_most(t, d, error)?;
        }
        out.push(t.clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    fn p(
        s: &[usize],
        pads: &[(isize, isize)],
        mode: PadMode,
    ) -> Result<Vec<usize>, RuleError<usize>> {
        decide(|ck| pad(ck, "pad", s, pads, mode))
    }

    #[test]
    fn constant_pads_grow_and_cut() {
        assert_eq!(
            p(&[2, 3], &[(1, 2), (-1, 0)], PadMode::Constant),
            Ok(vec![5, 2])
        );
        assert_eq!(p(&[3], &[(-2, -1)], PadMode::Constant), Ok(vec![0]));
        assert!(matches!(
            p(&[3], &[(-2, -2)], PadMode::Constant),
            Err(RuleError::Shape { .. })
        ));
        assert!(matches!(
            p(&[3], &[], PadMode::Constant),
            Err(RuleError::RankMismatch { given: 0, .. })
        ));
        assert!(p(&[3], &[(isize::MAX, isize::MAX)], PadMode::Constant).is_err());
    }

    #[test]
    fn mode_limits() {
        assert_eq!(p(&[3], &[(2, 2)], PadMode::Reflect), Ok(vec![7]));
        assert!(p(&[3], &[(3, 0)], PadMode::Reflect).is_err());
        assert_eq!(p(&[1], &[(4, 0)], PadMode::Replicate), Ok(vec![5]));
        assert!(p(&[0], &[(1, 0)], PadMode::Replicate).is_err());
        assert_eq!(p(&[3], &[(3, 3)], PadMode::Circular), Ok(vec![9]));
        assert!(p(&[3], &[(4, 0)], PadMode::Circular).is_err());
        assert!(p(&[3], &[(-1, 3)], PadMode::Circular).is_err());
        assert_eq!(PadMode::from_name("reflect"), Some(PadMode::Reflect));
    }

    #[test]
    fn flat_pads_and_shrinks() {
        assert_eq!(
            group_flat_pads("pad", &[1usize, 2, 2], &[1, 2, 0, -1]),
            Ok(vec![(0, 0), (0, -1), (1, 2)])
        );
        assert!(group_flat_pads("pad", &[1usize], &[1, 2, 3]).is_err());
        let s = |r: &[(isize, isize)]| decide(|ck| shrink(ck, "shrink", &[2usize, 3], r));
        assert_eq!(s(&[(0, 1), (1, 3)]), Ok(vec![1, 2]));
        assert!(s(&[(0, 1), (1, 4)]).is_err());
        assert!(s(&[(1, 0), (0, 3)]).is_err());
        let t = |t: &[Option<usize>], g| decide(|ck| resize_to(ck, "pad_to", &[2usize, 3], t, g));
        assert_eq!(t(&[Some(4), None], true), Ok(vec![4, 3]));
        assert!(t(&[Some(1), None], true).is_err());
        assert_eq!(t(&[Some(1), None], false), Ok(vec![1, 3]));
    }
}
