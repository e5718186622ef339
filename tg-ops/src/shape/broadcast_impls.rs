// numpy's rank broadcasting as trait impls (shape/mod.rs, `Broadcast`).
// Generated from tg-core's tables by tg-ops/tests/generated.rs; do not edit by hand:
// TG_BLESS=1 cargo test -p tg-ops --test generated

use super::{Broadcast, Dim, SameDim};

#[diagnostic::do_not_recommend]
impl Broadcast<()> for () { type Output = (); }
#[diagnostic::do_not_recommend]
impl<B0> Broadcast<(B0, )> for () where B0: Dim { type Output = (B0, ); }
#[diagnostic::do_not_recommend]
impl<B0, B1> Broadcast<(B0, B1, )> for () where B0: Dim, B1: Dim { type Output = (B0, B1, ); }
#[diagnostic::do_not_recommend]
impl<B0, B1, B2> Broadcast<(B0, B1, B2, )> for () where B0: Dim, B1: Dim, B2: Dim { type Output = (B0, B1, B2, ); }
#[diagnostic::do_not_recommend]
impl<B0, B1, B2, B3> Broadcast<(B0, B1, B2, B3, )> for () where B0: Dim, B1: Dim, B2: Dim, B3: Dim { type Output = (B0, B1, B2, B3, ); }
#[diagnostic::do_not_recommend]
impl<B0, B1, B2, B3, B4> Broadcast<(B0, B1, B2, B3, B4, )> for () where B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim { type Output = (B0, B1, B2, B3, B4, ); }
#[diagnostic::do_not_recommend]
impl<B0, B1, B2, B3, B4, B5> Broadcast<(B0, B1, B2, B3, B4, B5, )> for () where B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, B5: Dim { type Output = (B0, B1, B2, B3, B4, B5, ); }
#[diagnostic::do_not_recommend]
impl<A0> Broadcast<()> for (A0, ) where A0: Dim { type Output = (A0, ); }
#[diagnostic::do_not_recommend]
impl<A0, B0> Broadcast<(B0, )> for (A0, ) where A0: Dim, B0: Dim, A0: SameDim<B0> { type Output = (<A0 as SameDim<B0>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, B0, B1> Broadcast<(B0, B1, )> for (A0, ) where A0: Dim, B0: Dim, B1: Dim, A0: SameDim<B1> { type Output = (B0, <A0 as SameDim<B1>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, B0, B1, B2> Broadcast<(B0, B1, B2, )> for (A0, ) where A0: Dim, B0: Dim, B1: Dim, B2: Dim, A0: SameDim<B2> { type Output = (B0, B1, <A0 as SameDim<B2>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, B0, B1, B2, B3> Broadcast<(B0, B1, B2, B3, )> for (A0, ) where A0: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, A0: SameDim<B3> { type Output = (B0, B1, B2, <A0 as SameDim<B3>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, B0, B1, B2, B3, B4> Broadcast<(B0, B1, B2, B3, B4, )> for (A0, ) where A0: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, A0: SameDim<B4> { type Output = (B0, B1, B2, B3, <A0 as SameDim<B4>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, B0, B1, B2, B3, B4, B5> Broadcast<(B0, B1, B2, B3, B4, B5, )> for (A0, ) where A0: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, B5: Dim, A0: SameDim<B5> { type Output = (B0, B1, B2, B3, B4, <A0 as SameDim<B5>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1> Broadcast<()> for (A0, A1, ) where A0: Dim, A1: Dim { type Output = (A0, A1, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, B0> Broadcast<(B0, )> for (A0, A1, ) where A0: Dim, A1: Dim, B0: Dim, A1: SameDim<B0> { type Output = (A0, <A1 as SameDim<B0>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, B0, B1> Broadcast<(B0, B1, )> for (A0, A1, ) where A0: Dim, A1: Dim, B0: Dim, B1: Dim, A0: SameDim<B0>, A1: SameDim<B1> { type Output = (<A0 as SameDim<B0>>::Output, <A1 as SameDim<B1>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, B0, B1, B2> Broadcast<(B0, B1, B2, )> for (A0, A1, ) where A0: Dim, A1: Dim, B0: Dim, B1: Dim, B2: Dim, A0: SameDim<B1>, A1: SameDim<B2> { type Output = (B0, <A0 as SameDim<B1>>::Output, <A1 as SameDim<B2>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, B0, B1, B2, B3> Broadcast<(B0, B1, B2, B3, )> for (A0, A1, ) where A0: Dim, A1: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, A0: SameDim<B2>, A1: SameDim<B3> { type Output = (B0, B1, <A0 as SameDim<B2>>::Output, <A1 as SameDim<B3>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, B0, B1, B2, B3, B4> Broadcast<(B0, B1, B2, B3, B4, )> for (A0, A1, ) where A0: Dim, A1: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, A0: SameDim<B3>, A1: SameDim<B4> { type Output = (B0, B1, B2, <A0 as SameDim<B3>>::Output, <A1 as SameDim<B4>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, B0, B1, B2, B3, B4, B5> Broadcast<(B0, B1, B2, B3, B4, B5, )> for (A0, A1, ) where A0: Dim, A1: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, B5: Dim, A0: SameDim<B4>, A1: SameDim<B5> { type Output = (B0, B1, B2, B3, <A0 as SameDim<B4>>::Output, <A1 as SameDim<B5>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2> Broadcast<()> for (A0, A1, A2, ) where A0: Dim, A1: Dim, A2: Dim { type Output = (A0, A1, A2, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, B0> Broadcast<(B0, )> for (A0, A1, A2, ) where A0: Dim, A1: Dim, A2: Dim, B0: Dim, A2: SameDim<B0> { type Output = (A0, A1, <A2 as SameDim<B0>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, B0, B1> Broadcast<(B0, B1, )> for (A0, A1, A2, ) where A0: Dim, A1: Dim, A2: Dim, B0: Dim, B1: Dim, A1: SameDim<B0>, A2: SameDim<B1> { type Output = (A0, <A1 as SameDim<B0>>::Output, <A2 as SameDim<B1>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, B0, B1, B2> Broadcast<(B0, B1, B2, )> for (A0, A1, A2, ) where A0: Dim, A1: Dim, A2: Dim, B0: Dim, B1: Dim, B2: Dim, A0: SameDim<B0>, A1: SameDim<B1>, A2: SameDim<B2> { type Output = (<A0 as SameDim<B0>>::Output, <A1 as SameDim<B1>>::Output, <A2 as SameDim<B2>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, B0, B1, B2, B3> Broadcast<(B0, B1, B2, B3, )> for (A0, A1, A2, ) where A0: Dim, A1: Dim, A2: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, A0: SameDim<B1>, A1: SameDim<B2>, A2: SameDim<B3> { type Output = (B0, <A0 as SameDim<B1>>::Output, <A1 as SameDim<B2>>::Output, <A2 as SameDim<B3>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, B0, B1, B2, B3, B4> Broadcast<(B0, B1, B2, B3, B4, )> for (A0, A1, A2, ) where A0: Dim, A1: Dim, A2: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, A0: SameDim<B2>, A1: SameDim<B3>, A2: SameDim<B4> { type Output = (B0, B1, <A0 as SameDim<B2>>::Output, <A1 as SameDim<B3>>::Output, <A2 as SameDim<B4>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, B0, B1, B2, B3, B4, B5> Broadcast<(B0, B1, B2, B3, B4, B5, )> for (A0, A1, A2, ) where A0: Dim, A1: Dim, A2: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, B5: Dim, A0: SameDim<B3>, A1: SameDim<B4>, A2: SameDim<B5> { type Output = (B0, B1, B2, <A0 as SameDim<B3>>::Output, <A1 as SameDim<B4>>::Output, <A2 as SameDim<B5>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3> Broadcast<()> for (A0, A1, A2, A3, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim { type Output = (A0, A1, A2, A3, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, B0> Broadcast<(B0, )> for (A0, A1, A2, A3, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, B0: Dim, A3: SameDim<B0> { type Output = (A0, A1, A2, <A3 as SameDim<B0>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, B0, B1> Broadcast<(B0, B1, )> for (A0, A1, A2, A3, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, B0: Dim, B1: Dim, A2: SameDim<B0>, A3: SameDim<B1> { type Output = (A0, A1, <A2 as SameDim<B0>>::Output, <A3 as SameDim<B1>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, B0, B1, B2> Broadcast<(B0, B1, B2, )> for (A0, A1, A2, A3, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, B0: Dim, B1: Dim, B2: Dim, A1: SameDim<B0>, A2: SameDim<B1>, A3: SameDim<B2> { type Output = (A0, <A1 as SameDim<B0>>::Output, <A2 as SameDim<B1>>::Output, <A3 as SameDim<B2>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, B0, B1, B2, B3> Broadcast<(B0, B1, B2, B3, )> for (A0, A1, A2, A3, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, A0: SameDim<B0>, A1: SameDim<B1>, A2: SameDim<B2>, A3: SameDim<B3> { type Output = (<A0 as SameDim<B0>>::Output, <A1 as SameDim<B1>>::Output, <A2 as SameDim<B2>>::Output, <A3 as SameDim<B3>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, B0, B1, B2, B3, B4> Broadcast<(B0, B1, B2, B3, B4, )> for (A0, A1, A2, A3, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, A0: SameDim<B1>, A1: SameDim<B2>, A2: SameDim<B3>, A3: SameDim<B4> { type Output = (B0, <A0 as SameDim<B1>>::Output, <A1 as SameDim<B2>>::Output, <A2 as SameDim<B3>>::Output, <A3 as SameDim<B4>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, B0, B1, B2, B3, B4, B5> Broadcast<(B0, B1, B2, B3, B4, B5, )> for (A0, A1, A2, A3, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, B5: Dim, A0: SameDim<B2>, A1: SameDim<B3>, A2: SameDim<B4>, A3: SameDim<B5> { type Output = (B0, B1, <A0 as SameDim<B2>>::Output, <A1 as SameDim<B3>>::Output, <A2 as SameDim<B4>>::Output, <A3 as SameDim<B5>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4> Broadcast<()> for (A0, A1, A2, A3, A4, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim { type Output = (A0, A1, A2, A3, A4, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, B0> Broadcast<(B0, )> for (A0, A1, A2, A3, A4, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, B0: Dim, A4: SameDim<B0> { type Output = (A0, A1, A2, A3, <A4 as SameDim<B0>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, B0, B1> Broadcast<(B0, B1, )> for (A0, A1, A2, A3, A4, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, B0: Dim, B1: Dim, A3: SameDim<B0>, A4: SameDim<B1> { type Output = (A0, A1, A2, <A3 as SameDim<B0>>::Output, <A4 as SameDim<B1>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, B0, B1, B2> Broadcast<(B0, B1, B2, )> for (A0, A1, A2, A3, A4, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, B0: Dim, B1: Dim, B2: Dim, A2: SameDim<B0>, A3: SameDim<B1>, A4: SameDim<B2> { type Output = (A0, A1, <A2 as SameDim<B0>>::Output, <A3 as SameDim<B1>>::Output, <A4 as SameDim<B2>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, B0, B1, B2, B3> Broadcast<(B0, B1, B2, B3, )> for (A0, A1, A2, A3, A4, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, A1: SameDim<B0>, A2: SameDim<B1>, A3: SameDim<B2>, A4: SameDim<B3> { type Output = (A0, <A1 as SameDim<B0>>::Output, <A2 as SameDim<B1>>::Output, <A3 as SameDim<B2>>::Output, <A4 as SameDim<B3>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, B0, B1, B2, B3, B4> Broadcast<(B0, B1, B2, B3, B4, )> for (A0, A1, A2, A3, A4, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, A0: SameDim<B0>, A1: SameDim<B1>, A2: SameDim<B2>, A3: SameDim<B3>, A4: SameDim<B4> { type Output = (<A0 as SameDim<B0>>::Output, <A1 as SameDim<B1>>::Output, <A2 as SameDim<B2>>::Output, <A3 as SameDim<B3>>::Output, <A4 as SameDim<B4>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, B0, B1, B2, B3, B4, B5> Broadcast<(B0, B1, B2, B3, B4, B5, )> for (A0, A1, A2, A3, A4, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, B5: Dim, A0: SameDim<B1>, A1: SameDim<B2>, A2: SameDim<B3>, A3: SameDim<B4>, A4: SameDim<B5> { type Output = (B0, <A0 as SameDim<B1>>::Output, <A1 as SameDim<B2>>::Output, <A2 as SameDim<B3>>::Output, <A3 as SameDim<B4>>::Output, <A4 as SameDim<B5>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, A5> Broadcast<()> for (A0, A1, A2, A3, A4, A5, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim { type Output = (A0, A1, A2, A3, A4, A5, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, A5, B0> Broadcast<(B0, )> for (A0, A1, A2, A3, A4, A5, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim, B0: Dim, A5: SameDim<B0> { type Output = (A0, A1, A2, A3, A4, <A5 as SameDim<B0>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, A5, B0, B1> Broadcast<(B0, B1, )> for (A0, A1, A2, A3, A4, A5, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim, B0: Dim, B1: Dim, A4: SameDim<B0>, A5: SameDim<B1> { type Output = (A0, A1, A2, A3, <A4 as SameDim<B0>>::Output, <A5 as SameDim<B1>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, A5, B0, B1, B2> Broadcast<(B0, B1, B2, )> for (A0, A1, A2, A3, A4, A5, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim, B0: Dim, B1: Dim, B2: Dim, A3: SameDim<B0>, A4: SameDim<B1>, A5: SameDim<B2> { type Output = (A0, A1, A2, <A3 as SameDim<B0>>::Output, <A4 as SameDim<B1>>::Output, <A5 as SameDim<B2>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, A5, B0, B1, B2, B3> Broadcast<(B0, B1, B2, B3, )> for (A0, A1, A2, A3, A4, A5, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, A2: SameDim<B0>, A3: SameDim<B1>, A4: SameDim<B2>, A5: SameDim<B3> { type Output = (A0, A1, <A2 as SameDim<B0>>::Output, <A3 as SameDim<B1>>::Output, <A4 as SameDim<B2>>::Output, <A5 as SameDim<B3>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, A5, B0, B1, B2, B3, B4> Broadcast<(B0, B1, B2, B3, B4, )> for (A0, A1, A2, A3, A4, A5, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, A1: SameDim<B0>, A2: SameDim<B1>, A3: SameDim<B2>, A4: SameDim<B3>, A5: SameDim<B4> { type Output = (A0, <A1 as SameDim<B0>>::Output, <A2 as SameDim<B1>>::Output, <A3 as SameDim<B2>>::Output, <A4 as SameDim<B3>>::Output, <A5 as SameDim<B4>>::Output, ); }
#[diagnostic::do_not_recommend]
impl<A0, A1, A2, A3, A4, A5, B0, B1, B2, B3, B4, B5> Broadcast<(B0, B1, B2, B3, B4, B5, )> for (A0, A1, A2, A3, A4, A5, ) where A0: Dim, A1: Dim, A2: Dim, A3: Dim, A4: Dim, A5: Dim, B0: Dim, B1: Dim, B2: Dim, B3: Dim, B4: Dim, B5: Dim, A0: SameDim<B0>, A1: SameDim<B1>, A2: SameDim<B2>, A3: SameDim<B3>, A4: SameDim<B4>, A5: SameDim<B5> { type Output = (<A0 as SameDim<B0>>::Output, <A1 as SameDim<B1>>::Output, <A2 as SameDim<B2>>::Output, <A3 as SameDim<B3>>::Output, <A4 as SameDim<B4>>::Output, <A5 as SameDim<B5>>::Output, ); }
