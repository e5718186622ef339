#version 450
layout(local_size_x = 256) in;
layout(push_constant) uniform PC { uint n; uint p[1]; } pc;
layout(std430, set = 0, binding = 0) writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 1) readonly buffer In0 { vec4 v0[]; };
void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  if (gid >= (pc.n + 3u) / 4u) return;
  int q = int(gid);
  vec4 x9 = v0[q];
  float x0 = x9[0];
  float x1 = uintBitsToFloat(pc.p[0]);
  float x2 = (x0 * x1);
  float x3 = x9[1];
  float x4 = (x3 * x1);
  float x5 = x9[2];
  float x6 = (x5 * x1);
  float x7 = x9[3];
  float x8 = (x7 * x1);
  o[q] = vec4(x2, x4, x6, x8);
}
