#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { uint n; uint p[1]; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer In0 { vec4 v0[]; };
shared float s_acc1_0[64];
shared float s_acc1_1[64];
shared float s_acc1_2[64];
shared float s_acc1_3[64];
void main() {
  uint gid = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
  int lid = int(gl_LocalInvocationID.x);
  if (gid >= (pc.n + 3u) / 4u) return;
  int q = int(gid);
  float acc1_0 = 0.0;
  float acc1_1 = 0.0;
  float acc1_2 = 0.0;
  float acc1_3 = 0.0;
  int rounds1 = (int(pc.p[0]) + 63) / 64;
  int sg1 = min(int(gl_SubgroupSize), 64);
  int first1 = (lid / sg1) * rounds1 * sg1 + lid % sg1;
  for (int t1 = 0; t1 < rounds1; t1++) {
    int r1 = first1 + t1 * sg1;
    if (r1 >= int(pc.p[0])) break;
    vec4 x33 = v0[(q * 4096 + r1)];
    float x1 = x33[0];
    float x2 = x33[1];
    float x3 = x33[2];
    float x4 = x33[3];
    float x5 = (x1 + x2);
    float x6 = (x3 + x4);
    float x7 = (x5 + x6);
    vec4 x34 = v0[(q * 4096 + r1 + 1024)];
    float x9 = x34[0];
    float x10 = x34[1];
    float x11 = x34[2];
    float x12 = x34[3];
    float x13 = (x9 + x10);
    float x14 = (x11 + x12);
    float x15 = (x13 + x14);
    vec4 x35 = v0[(q * 4096 + r1 + 2048)];
    float x17 = x35[0];
    float x18 = x35[1];
    float x19 = x35[2];
    float x20 = x35[3];
    float x21 = (x17 + x18);
    float x22 = (x19 + x20);
    float x23 = (x21 + x22);
    vec4 x36 = v0[(q * 4096 + r1 + 3072)];
    float x25 = x36[0];
    float x26 = x36[1];
    float x27 = x36[2];
    float x28 = x36[3];
    float x29 = (x25 + x26);
    float x30 = (x27 + x28);
    float x31 = (x29 + x30);
    acc1_0 = (acc1_0 + x7);
    acc1_1 = (acc1_1 + x15);
    acc1_2 = (acc1_2 + x23);
    acc1_3 = (acc1_3 + x31);
  }
  acc1_0 = subgroupAdd(acc1_0);
  if (subgroupElect()) s_acc1_0[gl_SubgroupID] = acc1_0;
  barrier();
  if (lid == 0) { acc1_0 = s_acc1_0[0]; for (uint i = 1u; i < gl_NumSubgroups; i++) acc1_0 = (acc1_0 + s_acc1_0[i]); s_acc1_0[0] = acc1_0; }
  barrier();
  acc1_0 = s_acc1_0[0];
  acc1_1 = subgroupAdd(acc1_1);
  if (subgroupElect()) s_acc1_1[gl_SubgroupID] = acc1_1;
  barrier();
  if (lid == 0) { acc1_1 = s_acc1_1[0]; for (uint i = 1u; i < gl_NumSubgroups; i++) acc1_1 = (acc1_1 + s_acc1_1[i]); s_acc1_1[0] = acc1_1; }
  barrier();
  acc1_1 = s_acc1_1[0];
  acc1_2 = subgroupAdd(acc1_2);
  if (subgroupElect()) s_acc1_2[gl_SubgroupID] = acc1_2;
  barrier();
  if (lid == 0) { acc1_2 = s_acc1_2[0]; for (uint i = 1u; i < gl_NumSubgroups; i++) acc1_2 = (acc1_2 + s_acc1_2[i]); s_acc1_2[0] = acc1_2; }
  barrier();
  acc1_2 = s_acc1_2[0];
  acc1_3 = subgroupAdd(acc1_3);
  if (subgroupElect()) s_acc1_3[gl_SubgroupID] = acc1_3;
  barrier();
  if (lid == 0) { acc1_3 = s_acc1_3[0]; for (uint i = 1u; i < gl_NumSubgroups; i++) acc1_3 = (acc1_3 + s_acc1_3[i]); s_acc1_3[0] = acc1_3; }
  barrier();
  acc1_3 = s_acc1_3[0];
  float x8 = acc1_0;
  float x16 = acc1_1;
  float x24 = acc1_2;
  float x32 = acc1_3;
  if (lid == 0) o[q] = vec4(x8, x16, x24, x32);
}
