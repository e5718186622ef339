#version 450
layout(local_size_x = 256) in;
layout(push_constant) uniform PC { uint n; uint p[1]; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer In0 { vec4 v0[]; };
void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  if (gid >= (pc.n + 3u) / 4u) return;
  int q = int(gid);
  vec4 x13 = v0[q];
  float x0 = x13[0];
  float x1 = uintBitsToFloat(pc.p[0]);
  float x2 = (x0 * x1);
  float x3 = (x2 + x0);
  float x4 = x13[1];
  float x5 = (x4 * x1);
  float x6 = (x5 + x4);
  float x7 = x13[2];
  float x8 = (x7 * x1);
  float x9 = (x8 + x7);
  float x10 = x13[3];
  float x11 = (x10 * x1);
  float x12 = (x11 + x10);
  o[q] = vec4(x3, x6, x9, x12);
}
