#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { uint n; uint p[1]; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer In0 { vec4 v0[]; };
shared float s_acc2_0[64];
float tg_max_f(float a, float b) { return (isnan(a) || isnan(b)) ? a + b : max(a, b); }
void main() {
  uint gid = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  int lid = int(gl_LocalInvocationID.x);
  if (gid >= pc.n / 1024u) return;
  int q = int(gid);
  float acc2_0 = uintBitsToFloat(0xff800000u);
  for (int r2 = lid; r2 < int(pc.p[0]); r2 += 64) {
    vec4 x20 = v0[(q * 256 + r2)];
    float x3 = x20[0];
    float x4 = x20[1];
    float x5 = x20[2];
    float x6 = x20[3];
    float x7 = tg_max_f(x3, x4);
    float x8 = tg_max_f(x5, x6);
    float x9 = tg_max_f(x7, x8);
    acc2_0 = tg_max_f(acc2_0, x9);
  }
  bool nan_acc2_0 = subgroupAny(isnan(acc2_0));
  acc2_0 = nan_acc2_0 ? acc2_0 + uintBitsToFloat(0x7fc00000u) : subgroupMax(acc2_0);
  if (subgroupElect()) s_acc2_0[gl_SubgroupID] = acc2_0;
  barrier();
  if (lid == 0) { acc2_0 = s_acc2_0[0]; for (uint i = 1u; i < gl_NumSubgroups; i++) acc2_0 = tg_max_f(acc2_0, s_acc2_0[i]); s_acc2_0[0] = acc2_0; }
  barrier();
  acc2_0 = s_acc2_0[0];
  float x10 = acc2_0;
  for (int r1 = lid; r1 < 256; r1 += 64) {
    vec4 x19 = v0[(q * 256 + r1)];
    float x1 = x19[0];
    float x11 = (-x10);
    float x12 = (x1 + x11);
    float x13 = x19[1];
    float x14 = (x13 + x11);
    float x15 = x19[2];
    float x16 = (x15 + x11);
    float x17 = x19[3];
    float x18 = (x17 + x11);
    o[(q * 256 + r1)] = vec4(x12, x14, x16, x18);
  }
}
