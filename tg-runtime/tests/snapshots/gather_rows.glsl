#version 450
layout(local_size_x = 256) in;
layout(push_constant) uniform PC { uint n; uint p[4]; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer In0 { int b0[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer In1 { vec4 v1[]; };
void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  if (gid >= (pc.n + 3u) / 4u) return;
  int q = int(gid);
  int x0 = b0[(q >> 4)];
  int x1 = int(pc.p[0]);
  int x2 = int(pc.p[1]);
  bool x3 = (x0 < x2);
  bool x4 = (x0 < x1);
  bool x5 = (pc.p[2] != 0u);
  bool x6 = (x4 ? x5 : x3);
  int x7 = (x6 ? x0 : x1);
  vec4 x17 = v1[(x7 * 16 + (q & 15))];
  float x8 = x17[0];
  float x9 = uintBitsToFloat(pc.p[3]);
  float x10 = (x6 ? x8 : x9);
  float x11 = x17[1];
  float x12 = (x6 ? x11 : x9);
  float x13 = x17[2];
  float x14 = (x6 ? x13 : x9);
  float x15 = x17[3];
  float x16 = (x6 ? x15 : x9);
  o[q] = vec4(x10, x12, x14, x16);
}
