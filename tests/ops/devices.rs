//! Tensors on several devices: the README's example, placement and the mixing error.

use tg::prelude::*;
use tg::runtime::Error;
use tg::runtime::device::Device;

#[test]
fn the_readme_devices_example_runs() -> tg::runtime::Result<()> {
    let gpu = Device::open("0")?;
    let a = Tensor::<Rank1<3>>::from_slice(&[1., 2., 3.])?.to(&gpu)?;
    let b = gpu.scope(|| Tensor::<Rank1<3>>::from_slice(&[4., 5., 6.]))?;
    let c = (&a + &b) * 2.0;
    assert_eq!(c.device()?.id(), gpu.id());
    assert_eq!(c.to_vec()?, vec![10.0f32, 14.0, 18.0]);
    let d = Tensor::<Rank1<3>>::from_slice(&[0., 0., 0.])?;
    match d.as_dyn().add(c.as_dyn()) {
        Err(Error::DeviceMismatch { first, second, .. }) => assert_ne!(first, second),
        other => panic!("expected DeviceMismatch, got {other:?}"),
    }
    // copied to the default device, the two mix again
    let back = c.to(&d.device()?)?;
    assert_eq!(
        d.as_dyn().add(back.as_dyn())?.to_vec::<f32>()?,
        vec![10.0, 14.0, 18.0]
    );
    Ok(())
}
