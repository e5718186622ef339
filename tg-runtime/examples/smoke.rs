use tg_runtime::*;
fn main() -> Result<()> {
    let a = Lazy::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    let b = Lazy::from_slice(&[2, 3], &[10.0f32, 20.0, 30.0, 40.0, 50.0, 60.0])?;
    let c = a.binary(BinaryOp::Add, &b)?;
    println!("{:?}", c.to_vec::<f32>()?);
    let s = c.reduce(ReduceOp::Add, &[1])?;
    println!("{:?}", s.to_vec::<f32>()?);
    let t = a.permute(&[1, 0])?.pad(&[(1, 0), (0, 1)])?.flip(&[0])?;
    println!("{:?} {:?}", t.shape(), t.to_vec::<f32>()?);
    let big = Lazy::constant(1.0f32, DType::F32, &[1 << 20]).contiguous();
    println!("{:?}", big.reduce(ReduceOp::Add, &[0])?.to_vec::<f32>()?);
    Ok(())
}
