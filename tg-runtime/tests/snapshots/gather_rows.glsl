#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 256) in;
layout(push_constant) uniform PC { uint n; uint p[4]; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { u64vec4 o[]; };
layout(set = 0, binding = 1) uniform usamplerBuffer tb0;
layout(set = 0, binding = 2) uniform usamplerBuffer tb1;
uint tg_tx1(usamplerBuffer t, int i) { return texelFetch(t, i >> 2)[i & 3]; }
u64vec4 tg_tx8(usamplerBuffer t, int j) {
  uvec4 a = texelFetch(t, 2 * j);
  uvec4 b = texelFetch(t, 2 * j + 1);
  return u64vec4(packUint2x32(a.xy), packUint2x32(a.zw), packUint2x32(b.xy), packUint2x32(b.zw));
}
void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  if (gid >= (pc.n + 7u) / 8u) return;
  int q = int(gid);
  int x0 = int(tg_tx1(tb0, int((q >> 3))));
  int x1 = int(pc.p[0]);
  int x2 = int(pc.p[1]);
  bool x3 = (x0 < x2);
  bool x4 = (x0 < x1);
  bool x5 = (pc.p[2] != 0u);
  bool x6 = (x4 ? x5 : x3);
  int x7 = (x6 ? x0 : x1);
  u64vec4 x25 = tg_tx8(tb1, int((x7 * 8 + (q & 7))));
  float x8 = uintBitsToFloat(unpackUint2x32(x25[0])[0]);
  float x9 = uintBitsToFloat(pc.p[3]);
  float x10 = (x6 ? x8 : x9);
  float x11 = uintBitsToFloat(unpackUint2x32(x25[0])[1]);
  float x12 = (x6 ? x11 : x9);
  float x13 = uintBitsToFloat(unpackUint2x32(x25[1])[0]);
  float x14 = (x6 ? x13 : x9);
  float x15 = uintBitsToFloat(unpackUint2x32(x25[1])[1]);
  float x16 = (x6 ? x15 : x9);
  float x17 = uintBitsToFloat(unpackUint2x32(x25[2])[0]);
  float x18 = (x6 ? x17 : x9);
  float x19 = uintBitsToFloat(unpackUint2x32(x25[2])[1]);
  float x20 = (x6 ? x19 : x9);
  float x21 = uintBitsToFloat(unpackUint2x32(x25[3])[0]);
  float x22 = (x6 ? x21 : x9);
  float x23 = uintBitsToFloat(unpackUint2x32(x25[3])[1]);
  float x24 = (x6 ? x23 : x9);
  o[q] = u64vec4(packUint2x32(uvec2(floatBitsToUint(x10), floatBitsToUint(x12))), packUint2x32(uvec2(floatBitsToUint(x14), floatBitsToUint(x16))), packUint2x32(uvec2(floatBitsToUint(x18), floatBitsToUint(x20))), packUint2x32(uvec2(floatBitsToUint(x22), floatBitsToUint(x24))));
}
