#version 450
layout(local_size_x = 256) in;
layout(push_constant) uniform PC { uint n; uint p[2]; } pc;
layout(std430, set = 0, binding = 0) restrict writeonly buffer Out { uint o[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer In0 { uint b0[]; };
uvec4 tg_record(uint r) {
  uvec4 v = uvec4(0u);
  v.x = b0[r * 2u + 0u];
  v.y = b0[r * 2u + 1u];
  return v;
}
bool tg_before(uvec4 a, uvec4 b) {
  return a.x < b.x || a.x == b.x && (a.y < b.y);
}
void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  uint total = pc.n / 2u;
  uint first = gid * 8u;
  if (first >= total) return;
  uint len = pc.p[0];
  uint run = pc.p[1];
  uint base = (first / len) * len;
  uint at = first - base;
  uint pair = at - at % (2u * run);
  uint a0 = base + pair;
  uint la = min(run, len - pair);
  uint b0_ = a0 + la;
  uint lb = min(run, len - pair - la);
  uint k = at - pair;
  uint lo = k > lb ? k - lb : 0u;
  uint hi = min(k, la);
  while (lo < hi) {
    uint mid = (lo + hi) >> 1u;
    if (tg_before(tg_record(b0_ + k - mid - 1u), tg_record(a0 + mid))) { hi = mid; } else { lo = mid + 1u; }
  }
  uint a = lo;
  uint b = k - lo;
  uvec4 ha = a < la ? tg_record(a0 + a) : uvec4(0u);
  uvec4 hb = b < lb ? tg_record(b0_ + b) : uvec4(0u);
  // the first record past this pair: where the next pair starts (pairs end at a row's end)
  uint end = b0_ + lb;
  for (uint j = 0u; j < 8u; j++) {
    uint g = first + j;
    if (g >= total) break;
    if (g == end) {
      if (g - base >= len) { base = g; }
      at = g - base;
      a0 = g;
      la = min(run, len - at);
      b0_ = a0 + la;
      lb = min(run, len - at - la);
      end = b0_ + lb;
      a = 0u;
      b = 0u;
      ha = tg_record(a0);
      hb = lb > 0u ? tg_record(b0_) : uvec4(0u);
    }
    bool from_a = b >= lb || (a < la && !tg_before(hb, ha));
    uvec4 r = from_a ? ha : hb;
    o[g * 2u + 0u] = r.x;
    o[g * 2u + 1u] = r.y;
    if (from_a) {
      a++;
      if (a < la) ha = tg_record(a0 + a);
    } else {
      b++;
      if (b < lb) hb = tg_record(b0_ + b);
    }
  }
}
