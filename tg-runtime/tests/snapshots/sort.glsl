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
void tg_exchange(inout uvec4 a, inout uvec4 b) {
  bool swap = tg_before(b, a);
  uvec4 first = swap ? b : a;
  b = swap ? a : b;
  a = first;
}
void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  uint len = pc.p[0];
  uint runs = (len + 32u - 1u) / 32u;
  uint row = gid / runs;
  if (row >= pc.n / 2u / len) return;
  uint start = row * len + (gid - row * runs) * 32u;
  uint count = min(32u, row * len + len - start);
  uvec4 r0 = 0u < count ? tg_record(start + 0u) : uvec4(0xffffffffu);
  uvec4 r1 = 1u < count ? tg_record(start + 1u) : uvec4(0xffffffffu);
  uvec4 r2 = 2u < count ? tg_record(start + 2u) : uvec4(0xffffffffu);
  uvec4 r3 = 3u < count ? tg_record(start + 3u) : uvec4(0xffffffffu);
  uvec4 r4 = 4u < count ? tg_record(start + 4u) : uvec4(0xffffffffu);
  uvec4 r5 = 5u < count ? tg_record(start + 5u) : uvec4(0xffffffffu);
  uvec4 r6 = 6u < count ? tg_record(start + 6u) : uvec4(0xffffffffu);
  uvec4 r7 = 7u < count ? tg_record(start + 7u) : uvec4(0xffffffffu);
  uvec4 r8 = 8u < count ? tg_record(start + 8u) : uvec4(0xffffffffu);
  uvec4 r9 = 9u < count ? tg_record(start + 9u) : uvec4(0xffffffffu);
  uvec4 r10 = 10u < count ? tg_record(start + 10u) : uvec4(0xffffffffu);
  uvec4 r11 = 11u < count ? tg_record(start + 11u) : uvec4(0xffffffffu);
  uvec4 r12 = 12u < count ? tg_record(start + 12u) : uvec4(0xffffffffu);
  uvec4 r13 = 13u < count ? tg_record(start + 13u) : uvec4(0xffffffffu);
  uvec4 r14 = 14u < count ? tg_record(start + 14u) : uvec4(0xffffffffu);
  uvec4 r15 = 15u < count ? tg_record(start + 15u) : uvec4(0xffffffffu);
  uvec4 r16 = 16u < count ? tg_record(start + 16u) : uvec4(0xffffffffu);
  uvec4 r17 = 17u < count ? tg_record(start + 17u) : uvec4(0xffffffffu);
  uvec4 r18 = 18u < count ? tg_record(start + 18u) : uvec4(0xffffffffu);
  uvec4 r19 = 19u < count ? tg_record(start + 19u) : uvec4(0xffffffffu);
  uvec4 r20 = 20u < count ? tg_record(start + 20u) : uvec4(0xffffffffu);
  uvec4 r21 = 21u < count ? tg_record(start + 21u) : uvec4(0xffffffffu);
  uvec4 r22 = 22u < count ? tg_record(start + 22u) : uvec4(0xffffffffu);
  uvec4 r23 = 23u < count ? tg_record(start + 23u) : uvec4(0xffffffffu);
  uvec4 r24 = 24u < count ? tg_record(start + 24u) : uvec4(0xffffffffu);
  uvec4 r25 = 25u < count ? tg_record(start + 25u) : uvec4(0xffffffffu);
  uvec4 r26 = 26u < count ? tg_record(start + 26u) : uvec4(0xffffffffu);
  uvec4 r27 = 27u < count ? tg_record(start + 27u) : uvec4(0xffffffffu);
  uvec4 r28 = 28u < count ? tg_record(start + 28u) : uvec4(0xffffffffu);
  uvec4 r29 = 29u < count ? tg_record(start + 29u) : uvec4(0xffffffffu);
  uvec4 r30 = 30u < count ? tg_record(start + 30u) : uvec4(0xffffffffu);
  uvec4 r31 = 31u < count ? tg_record(start + 31u) : uvec4(0xffffffffu);
  tg_exchange(r0, r1);
  tg_exchange(r2, r3);
  tg_exchange(r4, r5);
  tg_exchange(r6, r7);
  tg_exchange(r8, r9);
  tg_exchange(r10, r11);
  tg_exchange(r12, r13);
  tg_exchange(r14, r15);
  tg_exchange(r16, r17);
  tg_exchange(r18, r19);
  tg_exchange(r20, r21);
  tg_exchange(r22, r23);
  tg_exchange(r24, r25);
  tg_exchange(r26, r27);
  tg_exchange(r28, r29);
  tg_exchange(r30, r31);
  tg_exchange(r0, r2);
  tg_exchange(r1, r3);
  tg_exchange(r4, r6);
  tg_exchange(r5, r7);
  tg_exchange(r8, r10);
  tg_exchange(r9, r11);
  tg_exchange(r12, r14);
  tg_exchange(r13, r15);
  tg_exchange(r16, r18);
  tg_exchange(r17, r19);
  tg_exchange(r20, r22);
  tg_exchange(r21, r23);
  tg_exchange(r24, r26);
  tg_exchange(r25, r27);
  tg_exchange(r28, r30);
  tg_exchange(r29, r31);
  tg_exchange(r1, r2);
  tg_exchange(r5, r6);
  tg_exchange(r9, r10);
  tg_exchange(r13, r14);
  tg_exchange(r17, r18);
  tg_exchange(r21, r22);
  tg_exchange(r25, r26);
  tg_exchange(r29, r30);
  tg_exchange(r0, r4);
  tg_exchange(r1, r5);
  tg_exchange(r2, r6);
  tg_exchange(r3, r7);
  tg_exchange(r8, r12);
  tg_exchange(r9, r13);
  tg_exchange(r10, r14);
  tg_exchange(r11, r15);
  tg_exchange(r16, r20);
  tg_exchange(r17, r21);
  tg_exchange(r18, r22);
  tg_exchange(r19, r23);
  tg_exchange(r24, r28);
  tg_exchange(r25, r29);
  tg_exchange(r26, r30);
  tg_exchange(r27, r31);
  tg_exchange(r2, r4);
  tg_exchange(r3, r5);
  tg_exchange(r10, r12);
  tg_exchange(r11, r13);
  tg_exchange(r18, r20);
  tg_exchange(r19, r21);
  tg_exchange(r26, r28);
  tg_exchange(r27, r29);
  tg_exchange(r1, r2);
  tg_exchange(r3, r4);
  tg_exchange(r5, r6);
  tg_exchange(r9, r10);
  tg_exchange(r11, r12);
  tg_exchange(r13, r14);
  tg_exchange(r17, r18);
  tg_exchange(r19, r20);
  tg_exchange(r21, r22);
  tg_exchange(r25, r26);
  tg_exchange(r27, r28);
  tg_exchange(r29, r30);
  tg_exchange(r0, r8);
  tg_exchange(r1, r9);
  tg_exchange(r2, r10);
  tg_exchange(r3, r11);
  tg_exchange(r4, r12);
  tg_exchange(r5, r13);
  tg_exchange(r6, r14);
  tg_exchange(r7, r15);
  tg_exchange(r16, r24);
  tg_exchange(r17, r25);
  tg_exchange(r18, r26);
  tg_exchange(r19, r27);
  tg_exchange(r20, r28);
  tg_exchange(r21, r29);
  tg_exchange(r22, r30);
  tg_exchange(r23, r31);
  tg_exchange(r4, r8);
  tg_exchange(r5, r9);
  tg_exchange(r6, r10);
  tg_exchange(r7, r11);
  tg_exchange(r20, r24);
  tg_exchange(r21, r25);
  tg_exchange(r22, r26);
  tg_exchange(r23, r27);
  tg_exchange(r2, r4);
  tg_exchange(r3, r5);
  tg_exchange(r6, r8);
  tg_exchange(r7, r9);
  tg_exchange(r10, r12);
  tg_exchange(r11, r13);
  tg_exchange(r18, r20);
  tg_exchange(r19, r21);
  tg_exchange(r22, r24);
  tg_exchange(r23, r25);
  tg_exchange(r26, r28);
  tg_exchange(r27, r29);
  tg_exchange(r1, r2);
  tg_exchange(r3, r4);
  tg_exchange(r5, r6);
  tg_exchange(r7, r8);
  tg_exchange(r9, r10);
  tg_exchange(r11, r12);
  tg_exchange(r13, r14);
  tg_exchange(r17, r18);
  tg_exchange(r19, r20);
  tg_exchange(r21, r22);
  tg_exchange(r23, r24);
  tg_exchange(r25, r26);
  tg_exchange(r27, r28);
  tg_exchange(r29, r30);
  tg_exchange(r0, r16);
  tg_exchange(r1, r17);
  tg_exchange(r2, r18);
  tg_exchange(r3, r19);
  tg_exchange(r4, r20);
  tg_exchange(r5, r21);
  tg_exchange(r6, r22);
  tg_exchange(r7, r23);
  tg_exchange(r8, r24);
  tg_exchange(r9, r25);
  tg_exchange(r10, r26);
  tg_exchange(r11, r27);
  tg_exchange(r12, r28);
  tg_exchange(r13, r29);
  tg_exchange(r14, r30);
  tg_exchange(r15, r31);
  tg_exchange(r8, r16);
  tg_exchange(r9, r17);
  tg_exchange(r10, r18);
  tg_exchange(r11, r19);
  tg_exchange(r12, r20);
  tg_exchange(r13, r21);
  tg_exchange(r14, r22);
  tg_exchange(r15, r23);
  tg_exchange(r4, r8);
  tg_exchange(r5, r9);
  tg_exchange(r6, r10);
  tg_exchange(r7, r11);
  tg_exchange(r12, r16);
  tg_exchange(r13, r17);
  tg_exchange(r14, r18);
  tg_exchange(r15, r19);
  tg_exchange(r20, r24);
  tg_exchange(r21, r25);
  tg_exchange(r22, r26);
  tg_exchange(r23, r27);
  tg_exchange(r2, r4);
  tg_exchange(r3, r5);
  tg_exchange(r6, r8);
  tg_exchange(r7, r9);
  tg_exchange(r10, r12);
  tg_exchange(r11, r13);
  tg_exchange(r14, r16);
  tg_exchange(r15, r17);
  tg_exchange(r18, r20);
  tg_exchange(r19, r21);
  tg_exchange(r22, r24);
  tg_exchange(r23, r25);
  tg_exchange(r26, r28);
  tg_exchange(r27, r29);
  tg_exchange(r1, r2);
  tg_exchange(r3, r4);
  tg_exchange(r5, r6);
  tg_exchange(r7, r8);
  tg_exchange(r9, r10);
  tg_exchange(r11, r12);
  tg_exchange(r13, r14);
  tg_exchange(r15, r16);
  tg_exchange(r17, r18);
  tg_exchange(r19, r20);
  tg_exchange(r21, r22);
  tg_exchange(r23, r24);
  tg_exchange(r25, r26);
  tg_exchange(r27, r28);
  tg_exchange(r29, r30);
  if (0u < count) { o[(start + 0u) * 2u + 0u] = r0.x; o[(start + 0u) * 2u + 1u] = r0.y; }
  if (1u < count) { o[(start + 1u) * 2u + 0u] = r1.x; o[(start + 1u) * 2u + 1u] = r1.y; }
  if (2u < count) { o[(start + 2u) * 2u + 0u] = r2.x; o[(start + 2u) * 2u + 1u] = r2.y; }
  if (3u < count) { o[(start + 3u) * 2u + 0u] = r3.x; o[(start + 3u) * 2u + 1u] = r3.y; }
  if (4u < count) { o[(start + 4u) * 2u + 0u] = r4.x; o[(start + 4u) * 2u + 1u] = r4.y; }
  if (5u < count) { o[(start + 5u) * 2u + 0u] = r5.x; o[(start + 5u) * 2u + 1u] = r5.y; }
  if (6u < count) { o[(start + 6u) * 2u + 0u] = r6.x; o[(start + 6u) * 2u + 1u] = r6.y; }
  if (7u < count) { o[(start + 7u) * 2u + 0u] = r7.x; o[(start + 7u) * 2u + 1u] = r7.y; }
  if (8u < count) { o[(start + 8u) * 2u + 0u] = r8.x; o[(start + 8u) * 2u + 1u] = r8.y; }
  if (9u < count) { o[(start + 9u) * 2u + 0u] = r9.x; o[(start + 9u) * 2u + 1u] = r9.y; }
  if (10u < count) { o[(start + 10u) * 2u + 0u] = r10.x; o[(start + 10u) * 2u + 1u] = r10.y; }
  if (11u < count) { o[(start + 11u) * 2u + 0u] = r11.x; o[(start + 11u) * 2u + 1u] = r11.y; }
  if (12u < count) { o[(start + 12u) * 2u + 0u] = r12.x; o[(start + 12u) * 2u + 1u] = r12.y; }
  if (13u < count) { o[(start + 13u) * 2u + 0u] = r13.x; o[(start + 13u) * 2u + 1u] = r13.y; }
  if (14u < count) { o[(start + 14u) * 2u + 0u] = r14.x; o[(start + 14u) * 2u + 1u] = r14.y; }
  if (15u < count) { o[(start + 15u) * 2u + 0u] = r15.x; o[(start + 15u) * 2u + 1u] = r15.y; }
  if (16u < count) { o[(start + 16u) * 2u + 0u] = r16.x; o[(start + 16u) * 2u + 1u] = r16.y; }
  if (17u < count) { o[(start + 17u) * 2u + 0u] = r17.x; o[(start + 17u) * 2u + 1u] = r17.y; }
  if (18u < count) { o[(start + 18u) * 2u + 0u] = r18.x; o[(start + 18u) * 2u + 1u] = r18.y; }
  if (19u < count) { o[(start + 19u) * 2u + 0u] = r19.x; o[(start + 19u) * 2u + 1u] = r19.y; }
  if (20u < count) { o[(start + 20u) * 2u + 0u] = r20.x; o[(start + 20u) * 2u + 1u] = r20.y; }
  if (21u < count) { o[(start + 21u) * 2u + 0u] = r21.x; o[(start + 21u) * 2u + 1u] = r21.y; }
  if (22u < count) { o[(start + 22u) * 2u + 0u] = r22.x; o[(start + 22u) * 2u + 1u] = r22.y; }
  if (23u < count) { o[(start + 23u) * 2u + 0u] = r23.x; o[(start + 23u) * 2u + 1u] = r23.y; }
  if (24u < count) { o[(start + 24u) * 2u + 0u] = r24.x; o[(start + 24u) * 2u + 1u] = r24.y; }
  if (25u < count) { o[(start + 25u) * 2u + 0u] = r25.x; o[(start + 25u) * 2u + 1u] = r25.y; }
  if (26u < count) { o[(start + 26u) * 2u + 0u] = r26.x; o[(start + 26u) * 2u + 1u] = r26.y; }
  if (27u < count) { o[(start + 27u) * 2u + 0u] = r27.x; o[(start + 27u) * 2u + 1u] = r27.y; }
  if (28u < count) { o[(start + 28u) * 2u + 0u] = r28.x; o[(start + 28u) * 2u + 1u] = r28.y; }
  if (29u < count) { o[(start + 29u) * 2u + 0u] = r29.x; o[(start + 29u) * 2u + 1u] = r29.y; }
  if (30u < count) { o[(start + 30u) * 2u + 0u] = r30.x; o[(start + 30u) * 2u + 1u] = r30.y; }
  if (31u < count) { o[(start + 31u) * 2u + 0u] = r31.x; o[(start + 31u) * 2u + 1u] = r31.y; }
}
