#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { uint n; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer In0 { vec4 v0[]; };
shared float s_acc2_0[64];
float tg_max_f(float a, float b) { return isnan(a) ? a : (a > b ? a : b); }
void main() {
  uint gid = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  int lid = int(gl_LocalInvocationID.x);
  if (gid >= pc.n / 1024u) return;
  int q = int(gid);
  float s0[4][4];
  float acc2_0 = uintBitsToFloat(0xff800000u);
  for (int t2 = 0; t2 < 4; t2++) {
    int r2 = lid + t2 * 64;
    vec4 x23 = v0[(q * 256 + r2)];
    float x2 = x23[0];
    float x3 = x23[1];
    float x4 = x23[2];
    float x5 = x23[3];
    s0[t2][0] = x2;
    s0[t2][1] = x3;
    s0[t2][2] = x4;
    s0[t2][3] = x5;
    float x10 = tg_max_f(x2, x3);
    float x11 = tg_max_f(x4, x5);
    float x12 = tg_max_f(x10, x11);
    acc2_0 = tg_max_f(acc2_0, x12);
  }
  bool nan_acc2_0 = subgroupAny(isnan(acc2_0));
  acc2_0 = nan_acc2_0 ? acc2_0 + uintBitsToFloat(0x7fc00000u) : subgroupMax(acc2_0);
  if (subgroupElect()) s_acc2_0[gl_SubgroupID] = acc2_0;
  barrier();
  if (lid == 0) { acc2_0 = s_acc2_0[0]; for (uint i = 1u; i < gl_NumSubgroups; i++) acc2_0 = tg_max_f(acc2_0, s_acc2_0[i]); s_acc2_0[0] = acc2_0; }
  barrier();
  acc2_0 = s_acc2_0[0];
  float x13 = acc2_0;
  for (int t1 = 0; t1 < 4; t1++) {
    int r1 = lid + t1 * 64;
    float x14 = (-x13);
    float x15 = s0[t1][0];
    float x16 = (x15 + x14);
    float x17 = s0[t1][1];
    float x18 = (x17 + x14);
    float x19 = s0[t1][2];
    float x20 = (x19 + x14);
    float x21 = s0[t1][3];
    float x22 = (x21 + x14);
    o[(q * 256 + r1)] = vec4(x16, x18, x20, x22);
  }
}
