// The per-rank, per-axis impls of the type-level axis traits (shape/axis.rs).
// Generated from tg-core's tables by tg-ops/tests/generated.rs; do not edit by hand:
// TG_BLESS=1 cargo test -p tg-ops --test generated

use super::axis::{InsertAxis, KeepAxis, RemoveAxis, SelectAxis, SwapAxes};
use super::{Const, Dim};

#[diagnostic::do_not_recommend] impl<D0: Dim> RemoveAxis<0> for (D0, ) { const AXIS: usize = 0; type Output = (); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim> KeepAxis<0> for (D0, ) { const AXIS: usize = 0; type Output = (Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> SelectAxis<0> for (D0, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim> SwapAxes<0, 0> for (D0, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> SwapAxes<0, -1> for (D0, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> RemoveAxis<-1> for (D0, ) { const AXIS: usize = 0; type Output = (); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim> KeepAxis<-1> for (D0, ) { const AXIS: usize = 0; type Output = (Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> SelectAxis<-1> for (D0, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim> SwapAxes<-1, 0> for (D0, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> SwapAxes<-1, -1> for (D0, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxis<0> for (D0, D1, ) { const AXIS: usize = 0; type Output = (D1, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> KeepAxis<0> for (D0, D1, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SelectAxis<0> for (D0, D1, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<0, 0> for (D0, D1, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<0, -2> for (D0, D1, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<0, 1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<0, -1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxis<-2> for (D0, D1, ) { const AXIS: usize = 0; type Output = (D1, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> KeepAxis<-2> for (D0, D1, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SelectAxis<-2> for (D0, D1, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-2, 0> for (D0, D1, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-2, -2> for (D0, D1, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-2, 1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-2, -1> for (D0, D1, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxis<1> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> KeepAxis<1> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SelectAxis<1> for (D0, D1, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<1, 0> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<1, -2> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<1, 1> for (D0, D1, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<1, -1> for (D0, D1, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> RemoveAxis<-1> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> KeepAxis<-1> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SelectAxis<-1> for (D0, D1, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-1, 0> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-1, -2> for (D0, D1, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-1, 1> for (D0, D1, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> SwapAxes<-1, -1> for (D0, D1, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxis<0> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (D1, D2, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> KeepAxis<0> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SelectAxis<0> for (D0, D1, D2, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<0, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<0, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<0, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<0, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<0, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<0, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxis<-3> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (D1, D2, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> KeepAxis<-3> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SelectAxis<-3> for (D0, D1, D2, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-3, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-3, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-3, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-3, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-3, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-3, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxis<1> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, D2, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> KeepAxis<1> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SelectAxis<1> for (D0, D1, D2, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<1, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<1, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<1, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<1, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<1, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<1, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxis<-2> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, D2, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> KeepAxis<-2> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SelectAxis<-2> for (D0, D1, D2, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-2, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-2, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-2, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-2, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-2, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-2, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxis<2> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> KeepAxis<2> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SelectAxis<2> for (D0, D1, D2, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<2, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<2, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<2, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<2, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<2, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<2, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> RemoveAxis<-1> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> KeepAxis<-1> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SelectAxis<-1> for (D0, D1, D2, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-1, 0> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-1, -3> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-1, 1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-1, -2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-1, 2> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> SwapAxes<-1, -1> for (D0, D1, D2, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<0> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (D1, D2, D3, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<0> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<0> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<0, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<-4> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (D1, D2, D3, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<-4> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<-4> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-4, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<1> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, D2, D3, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<1> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<1> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<1, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<-3> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, D2, D3, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<-3> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<-3> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-3, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, D3, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<2, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<-2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, D3, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<-2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<-2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-2, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<3> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, ); type Removed = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<3> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<3> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Dim = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<3, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> RemoveAxis<-1> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, ); type Removed = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> KeepAxis<-1> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SelectAxis<-1> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Dim = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, 0> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, -4> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, 1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, -3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, 2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, -2> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, 3> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> SwapAxes<-1, -1> for (D0, D1, D2, D3, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<0> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (D1, D2, D3, D4, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<0> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<0> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<0, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<-5> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (D1, D2, D3, D4, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<-5> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<-5> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-5, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, D2, D3, D4, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<1, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<-4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, D2, D3, D4, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<-4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<-4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-4, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, D3, D4, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<2, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<-3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, D3, D4, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<-3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<-3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-3, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, D4, ); type Removed = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Dim = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<3, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<-2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, D4, ); type Removed = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<-2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<-2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Dim = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-2, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, ); type Removed = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Dim = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<4, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> RemoveAxis<-1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, ); type Removed = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> KeepAxis<-1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SelectAxis<-1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Dim = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, 0> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, -5> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, 1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, -4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, 2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, -3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, 3> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, -2> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, 4> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> SwapAxes<-1, -1> for (D0, D1, D2, D3, D4, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<0> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Output = (D1, D2, D3, D4, D5, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<0> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<0> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<0, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<-6> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Output = (D1, D2, D3, D4, D5, ); type Removed = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<-6> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Output = (Const<1>, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<-6> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 0; type Dim = D0; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 0); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 1); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 2); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 3); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 4); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-6, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (0, 5); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Output = (D0, D2, D3, D4, D5, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<1, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<-5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Output = (D0, D2, D3, D4, D5, ); type Removed = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<-5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<-5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 1; type Dim = D1; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 0); type Output = (D1, D0, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 1); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 2); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 3); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 4); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-5, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (1, 5); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Output = (D0, D1, D3, D4, D5, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<2, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<-4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Output = (D0, D1, D3, D4, D5, ); type Removed = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<-4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<-4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 2; type Dim = D2; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 0); type Output = (D2, D1, D0, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 1); type Output = (D0, D2, D1, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 2); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 3); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 4); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-4, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (2, 5); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, D4, D5, ); type Removed = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Dim = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<3, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<-3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, D4, D5, ); type Removed = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<-3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<-3> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 3; type Dim = D3; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 0); type Output = (D3, D1, D2, D0, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 1); type Output = (D0, D3, D2, D1, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 2); type Output = (D0, D1, D3, D2, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 3); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 4); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-3, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (3, 5); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, D5, ); type Removed = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<4> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Dim = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<4, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<-2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, D5, ); type Removed = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<-2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<-2> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 4; type Dim = D4; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 0); type Output = (D4, D1, D2, D3, D0, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 1); type Output = (D0, D4, D2, D3, D1, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 2); type Output = (D0, D1, D4, D3, D2, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 3); type Output = (D0, D1, D2, D4, D3, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 4); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-2, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (4, 5); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, ); type Removed = D5; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<5> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Dim = D5; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 5); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<5, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 5); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> RemoveAxis<-1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, ); type Removed = D5; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> KeepAxis<-1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SelectAxis<-1> for (D0, D1, D2, D3, D4, D5, ) { const AXIS: usize = 5; type Dim = D5; }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, 0> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, -6> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 0); type Output = (D5, D1, D2, D3, D4, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, 1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, -5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 1); type Output = (D0, D5, D2, D3, D4, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, 2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, -4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 2); type Output = (D0, D1, D5, D3, D4, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, 3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, -3> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 3); type Output = (D0, D1, D2, D5, D4, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, 4> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, -2> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 4); type Output = (D0, D1, D2, D3, D5, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, 5> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 5); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim, D5: Dim> SwapAxes<-1, -1> for (D0, D1, D2, D3, D4, D5, ) { const AXES: (usize, usize) = (5, 5); type Output = (D0, D1, D2, D3, D4, D5, ); }
#[diagnostic::do_not_recommend] impl InsertAxis<0> for () { const AXIS: usize = 0; type Output = (Const<1>, ); }
#[diagnostic::do_not_recommend] impl InsertAxis<-1> for () { const AXIS: usize = 0; type Output = (Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> InsertAxis<0> for (D0, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> InsertAxis<-2> for (D0, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> InsertAxis<1> for (D0, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim> InsertAxis<-1> for (D0, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> InsertAxis<0> for (D0, D1, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> InsertAxis<-3> for (D0, D1, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> InsertAxis<1> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> InsertAxis<-2> for (D0, D1, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> InsertAxis<2> for (D0, D1, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim> InsertAxis<-1> for (D0, D1, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<0> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<-4> for (D0, D1, D2, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<1> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<-3> for (D0, D1, D2, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<2> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<-2> for (D0, D1, D2, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D2, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<3> for (D0, D1, D2, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim> InsertAxis<-1> for (D0, D1, D2, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<0> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<-5> for (D0, D1, D2, D3, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<1> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<-4> for (D0, D1, D2, D3, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<2> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<-3> for (D0, D1, D2, D3, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D2, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<3> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<-2> for (D0, D1, D2, D3, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D3, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<4> for (D0, D1, D2, D3, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim> InsertAxis<-1> for (D0, D1, D2, D3, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<0> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<-6> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 0; type Output = (Const<1>, D0, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<-5> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 1; type Output = (D0, Const<1>, D1, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<-4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 2; type Output = (D0, D1, Const<1>, D2, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<-3> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 3; type Output = (D0, D1, D2, Const<1>, D3, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<4> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<-2> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 4; type Output = (D0, D1, D2, D3, Const<1>, D4, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<5> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, Const<1>, ); }
#[diagnostic::do_not_recommend] impl<D0: Dim, D1: Dim, D2: Dim, D3: Dim, D4: Dim> InsertAxis<-1> for (D0, D1, D2, D3, D4, ) { const AXIS: usize = 5; type Output = (D0, D1, D2, D3, D4, Const<1>, ); }
