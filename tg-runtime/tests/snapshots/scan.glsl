#version 450
layout(local_size_x = 256) in;
layout(push_constant) uniform PC { uint n; uint p[2]; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { vec4 o[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer In0 { float b0[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer In1 { vec4 v0[]; };
void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  uint len = pc.p[0];
  uint run = pc.p[1];
  uint runs = (len + run - 1u) / run;
  uint row = gid / runs;
  if (row >= pc.n / len) return;
  uint start = row * len + (gid - row * runs) * run;
  uint stop = min(start + run, row * len + len);
  precise float acc = 0.0;
  precise float comp = float(0);
  if ((len & 3u) == 0u && (run & 3u) == 0u) {
    for (uint j = start >> 2; j < stop >> 2; j++) {
      vec4 x = v0[j];
      precise vec4 r;
      precise float p0 = x[0];
      precise float p1 = (p0 + x[1]);
      precise float p2 = (p1 + x[2]);
      precise float p3 = (p2 + x[3]);
      r[0] = acc + (p0 - comp);
      r[1] = acc + (p1 - comp);
      r[2] = acc + (p2 - comp);
      { float y = p3 - comp; float t = acc + y; comp = (isinf(t) || isnan(t)) ? float(0) : (t - acc) - y; acc = t; }
      r[3] = acc;
      o[j] = r;
    }
    return;
  }
  for (uint i = start; i < stop; i++) {
    { float y = b0[i] - comp; float t = acc + y; comp = (isinf(t) || isnan(t)) ? float(0) : (t - acc) - y; acc = t; }
    o[i >> 2u][i & 3u] = acc;
  }
}
