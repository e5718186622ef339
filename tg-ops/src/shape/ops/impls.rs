// The per-rank impls of the shape traits of shape/ops.rs.
// Generated from tg-core's tables by tg-ops/tests/generated.rs; do not edit by hand:
// TG_BLESS=1 cargo test -p tg-ops --test generated

use super::{DynAxis, MatMulCheck, MatMulShape, MatmulBatch, MatmulInner, MatmulRanks, MoreStatic, RemoveAxes2};
use crate::shape::Shape;
use crate::shape::Dim;

#[diagnostic::do_not_recommend] impl<D0: Dim> DynAxis<0> for (D0, ) { const AXIS: usize = 0; type Output = (usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> DynAxis<-1> for (D0, ) { const AXIS: usize = 0; type Output = (usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> DynAxis<0> for (D0, D1, ) { const AXIS: usize = 0; type Output = (usize, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> DynAxis<-2> for (D0, D1, ) { const AXIS: usize = 0; type Output = (usize, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> DynAxis<1> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> DynAxis<-1> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> DynAxis<0> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> DynAxis<-3> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> DynAxis<1> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> DynAxis<-2> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> DynAxis<2> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> DynAxis<-1> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<0> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<-4> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<1> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<-3> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<-2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<3> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> DynAxis<-1> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<0> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<-5> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<-4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<-3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, usize, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<-2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, usize, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> DynAxis<-1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<0> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<-6> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Output = (usize, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<-5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Output = (D0, usize, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<-4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Output = (D0, D1, usize, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, usize, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<-3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, usize, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, usize, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<-2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, usize, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> DynAxis<-1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, usize, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<0, 1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<0, -1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<-2, 1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<-2, -1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<1, 0> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<1, -2> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<-1, 0> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxes2<-1, -2> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<0, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<0, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-3, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-3, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<0, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<0, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-3, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-3, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<1, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<1, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-2, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-2, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<1, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<1, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-2, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-2, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<2, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<2, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-1, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-1, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<2, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<2, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-1, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxes2<-1, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<0, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<0, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-4, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-4, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<0, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<0, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-4, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-4, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<0, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<0, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-4, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-4, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<1, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<1, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-3, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-3, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<1, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<1, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-3, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-3, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<1, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<1, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-3, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-3, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<2, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<2, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-2, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-2, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<2, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<2, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-2, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-2, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<2, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<2, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-2, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-2, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<3, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<3, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-1, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-1, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<3, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<3, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-1, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-1, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<3, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<3, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-1, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxes2<-1, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<0, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-5, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<1, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-4, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<2, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-3, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<3, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-2, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<4, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxes2<-1, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<0, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-6, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<1, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-5, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<2, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-4, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D1, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<3, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-3, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D1, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D2, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<4, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-2, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<5, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxes2<-1, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, ); }
impl<K1: Dim, K2: Dim> MatMulCheck<(K2, )> for (K1, ) where K1: MatmulInner<K2> {}
impl<K1: Dim, K2: Dim> MatMulShape<(K2, )> for (K1, ) { type Output = (); }
impl<K1: Dim, K2: Dim, N: Dim> MatMulCheck<(K2, N, )> for (K1, ) where K1: MatmulInner<K2> {}
impl<K1: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N, )> for (K1, ) { type Output = (N, ); }
impl<K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, K2, N, )> for (K1, ) where K1: MatmulInner<K2> {}
impl<K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulShape<(R0, K2, N, )> for (K1, ) { type Output = (R0, N, ); }
impl<K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, R1, K2, N, )> for (K1, ) where K1: MatmulInner<K2> {}
impl<K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulShape<(R0, R1, K2, N, )> for (K1, ) { type Output = (R0, R1, N, ); }
impl<M: Dim, K1: Dim, K2: Dim> MatMulCheck<(K2, )> for (M, K1, ) where K1: MatmulInner<K2> {}
impl<M: Dim, K1: Dim, K2: Dim> MatMulShape<(K2, )> for (M, K1, ) { type Output = (M, ); }
impl<M: Dim, K1: Dim, K2: Dim, N: Dim> MatMulCheck<(K2, N, )> for (M, K1, ) where K1: MatmulInner<K2> {}
impl<M: Dim, K1: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N, )> for (M, K1, ) { type Output = (M, N, ); }
impl<M: Dim, K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, K2, N, )> for (M, K1, ) where K1: MatmulInner<K2> {}
impl<M: Dim, K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulShape<(R0, K2, N, )> for (M, K1, ) { type Output = (R0, M, N, ); }
impl<M: Dim, K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, R1, K2, N, )> for (M, K1, ) where K1: MatmulInner<K2> {}
impl<M: Dim, K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulShape<(R0, R1, K2, N, )> for (M, K1, ) { type Output = (R0, R1, M, N, ); }
impl<L0: Dim, M: Dim, K1: Dim, K2: Dim> MatMulCheck<(K2, )> for (L0, M, K1, ) where K1: MatmulInner<K2> {}
impl<L0: Dim, M: Dim, K1: Dim, K2: Dim> MatMulShape<(K2, )> for (L0, M, K1, ) { type Output = (L0, M, ); }
impl<L0: Dim, M: Dim, K1: Dim, K2: Dim, N: Dim> MatMulCheck<(K2, N, )> for (L0, M, K1, ) where K1: MatmulInner<K2> {}
impl<L0: Dim, M: Dim, K1: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N, )> for (L0, M, K1, ) { type Output = (L0, M, N, ); }
impl<L0: Dim, M: Dim, K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, K2, N, )> for (L0, M, K1, ) where K1: MatmulInner<K2>, L0: MatmulBatch<R0> {}
impl<L0: Dim, M: Dim, K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulShape<(R0, K2, N, )> for (L0, M, K1, ) where L0: MoreStatic<R0> { type Output = (<L0 as MoreStatic<R0>>::Output, M, N, ); }
impl<L0: Dim, M: Dim, K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, R1, K2, N, )> for (L0, M, K1, ) where K1: MatmulInner<K2>, L0: MatmulBatch<R1> {}
impl<L0: Dim, M: Dim, K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulShape<(R0, R1, K2, N, )> for (L0, M, K1, ) where L0: MoreStatic<R1> { type Output = (R0, <L0 as MoreStatic<R1>>::Output, M, N, ); }
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, K2: Dim> MatMulCheck<(K2, )> for (L0, L1, M, K1, ) where K1: MatmulInner<K2> {}
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, K2: Dim> MatMulShape<(K2, )> for (L0, L1, M, K1, ) { type Output = (L0, L1, M, ); }
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, K2: Dim, N: Dim> MatMulCheck<(K2, N, )> for (L0, L1, M, K1, ) where K1: MatmulInner<K2> {}
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, K2: Dim, N: Dim> MatMulShape<(K2, N, )> for (L0, L1, M, K1, ) { type Output = (L0, L1, M, N, ); }
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, K2, N, )> for (L0, L1, M, K1, ) where K1: MatmulInner<K2>, L1: MatmulBatch<R0> {}
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, R0: Dim, K2: Dim, N: Dim> MatMulShape<(R0, K2, N, )> for (L0, L1, M, K1, ) where L1: MoreStatic<R0> { type Output = (L0, <L1 as MoreStatic<R0>>::Output, M, N, ); }
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulCheck<(R0, R1, K2, N, )> for (L0, L1, M, K1, ) where K1: MatmulInner<K2>, L0: MatmulBatch<R0>, L1: MatmulBatch<R1> {}
impl<L0: Dim, L1: Dim, M: Dim, K1: Dim, R0: Dim, R1: Dim, K2: Dim, N: Dim> MatMulShape<(R0, R1, K2, N, )> for (L0, L1, M, K1, ) where L0: MoreStatic<R0>, L1: MoreStatic<R1> { type Output = (<L0 as MoreStatic<R0>>::Output, <L1 as MoreStatic<R1>>::Output, M, N, ); }
impl<R: Shape> MatMulCheck<R> for () where (): MatmulRanks<R> {}
impl<R: Shape> MatMulShape<R> for () { type Output = (); }
impl<L0: Dim> MatMulCheck<()> for (L0, ) where (L0, ): MatmulRanks<()> {}
impl<L0: Dim> MatMulShape<()> for (L0, ) { type Output = (L0, ); }
impl<L0: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulCheck<(R0, R1, R2, R3, R4, )> for (L0, ) where (L0, ): MatmulRanks<(R0, R1, R2, R3, R4, )> {}
impl<L0: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulShape<(R0, R1, R2, R3, R4, )> for (L0, ) { type Output = (L0, ); }
impl<L0: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulCheck<(R0, R1, R2, R3, R4, R5, )> for (L0, ) where (L0, ): MatmulRanks<(R0, R1, R2, R3, R4, R5, )> {}
impl<L0: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulShape<(R0, R1, R2, R3, R4, R5, )> for (L0, ) { type Output = (L0, ); }
impl<L0: Dim, L1: Dim> MatMulCheck<()> for (L0, L1, ) where (L0, L1, ): MatmulRanks<()> {}
impl<L0: Dim, L1: Dim> MatMulShape<()> for (L0, L1, ) { type Output = (L0, L1, ); }
impl<L0: Dim, L1: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulCheck<(R0, R1, R2, R3, R4, )> for (L0, L1, ) where (L0, L1, ): MatmulRanks<(R0, R1, R2, R3, R4, )> {}
impl<L0: Dim, L1: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulShape<(R0, R1, R2, R3, R4, )> for (L0, L1, ) { type Output = (L0, L1, ); }
impl<L0: Dim, L1: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulCheck<(R0, R1, R2, R3, R4, R5, )> for (L0, L1, ) where (L0, L1, ): MatmulRanks<(R0, R1, R2, R3, R4, R5, )> {}
impl<L0: Dim, L1: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulShape<(R0, R1, R2, R3, R4, R5, )> for (L0, L1, ) { type Output = (L0, L1, ); }
impl<L0: Dim, L1: Dim, L2: Dim> MatMulCheck<()> for (L0, L1, L2, ) where (L0, L1, L2, ): MatmulRanks<()> {}
impl<L0: Dim, L1: Dim, L2: Dim> MatMulShape<()> for (L0, L1, L2, ) { type Output = (L0, L1, L2, ); }
impl<L0: Dim, L1: Dim, L2: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulCheck<(R0, R1, R2, R3, R4, )> for (L0, L1, L2, ) where (L0, L1, L2, ): MatmulRanks<(R0, R1, R2, R3, R4, )> {}
impl<L0: Dim, L1: Dim, L2: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulShape<(R0, R1, R2, R3, R4, )> for (L0, L1, L2, ) { type Output = (L0, L1, L2, ); }
impl<L0: Dim, L1: Dim, L2: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulCheck<(R0, R1, R2, R3, R4, R5, )> for (L0, L1, L2, ) where (L0, L1, L2, ): MatmulRanks<(R0, R1, R2, R3, R4, R5, )> {}
impl<L0: Dim, L1: Dim, L2: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulShape<(R0, R1, R2, R3, R4, R5, )> for (L0, L1, L2, ) { type Output = (L0, L1, L2, ); }
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim> MatMulCheck<()> for (L0, L1, L2, L3, ) where (L0, L1, L2, L3, ): MatmulRanks<()> {}
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim> MatMulShape<()> for (L0, L1, L2, L3, ) { type Output = (L0, L1, L2, L3, ); }
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulCheck<(R0, R1, R2, R3, R4, )> for (L0, L1, L2, L3, ) where (L0, L1, L2, L3, ): MatmulRanks<(R0, R1, R2, R3, R4, )> {}
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim> MatMulShape<(R0, R1, R2, R3, R4, )> for (L0, L1, L2, L3, ) { type Output = (L0, L1, L2, L3, ); }
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulCheck<(R0, R1, R2, R3, R4, R5, )> for (L0, L1, L2, L3, ) where (L0, L1, L2, L3, ): MatmulRanks<(R0, R1, R2, R3, R4, R5, )> {}
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, R0: Dim, R1: Dim, R2: Dim, R3: Dim, R4: Dim, R5: Dim> MatMulShape<(R0, R1, R2, R3, R4, R5, )> for (L0, L1, L2, L3, ) { type Output = (L0, L1, L2, L3, ); }
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, L4: Dim, R: Shape> MatMulCheck<R> for (L0, L1, L2, L3, L4, ) where (L0, L1, L2, L3, L4, ): MatmulRanks<R> {}
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, L4: Dim, R: Shape> MatMulShape<R> for (L0, L1, L2, L3, L4, ) { type Output = (L0, L1, L2, L3, L4, ); }
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, L4: Dim, L5: Dim, R: Shape> MatMulCheck<R> for (L0, L1, L2, L3, L4, L5, ) where (L0, L1, L2, L3, L4, L5, ): MatmulRanks<R> {}
impl<L0: Dim, L1: Dim, L2: Dim, L3: Dim, L4: Dim, L5: Dim, R: Shape> MatMulShape<R> for (L0, L1, L2, L3, L4, L5, ) { type Output = (L0, L1, L2, L3, L4, L5, ); }
