; An unsigned comparison with an operand of the parameters alone (a size
; argument) assumes that operand non-negative, checked once per group
; before the split runs: its sign cases would double every set built on
; the condition, for launches with a negative size. nv-transpose's
; guards `xIndex + offset < width` on int sizes made 7429 lines of
; work-group IR that way, 3427 without. An operand of the ids keeps its
; sign cases: `x - 1 < r` wraps at x = 0 to the largest unsigned value,
; exactly, so the group at offset 0 is split too.
;
; __kernel void guards(__global float *out, __global float *out2, int w,
;                      uint r) {
;   uint x = get_global_id(0);
;   if (x < w) out[x] = 1;
;   if (x - 1 < r) out2[x] = 2;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=guards -iss-local-size=16,1,1 -iss-vector-width=16 -iss-model-dims=0 -o /dev/null %s 2>&1 | FileCheck %s

; CHECK: assumed: [O_x, w, r] -> {  : O_x <= 2147483632 and w >= 0 and r >= 0 }
; CHECK: branch kernel.body: affine
; CHECK-NEXT: to first: [O_x, w] -> { WI[x, y = 0, z = 0] : 0 <= x < -O_x + w and x <= 15 }
; CHECK-NEXT: to next: [O_x, w] -> { WI[x, y = 0, z = 0] : x >= 0 and -O_x + w <= x <= 15 }
; CHECK: branch next: affine
; CHECK-NEXT: to second: [O_x, r] -> { WI[x, y = 0, z = 0] : x >= 0 and -O_x < x <= -O_x + r and x <= 15 }
; CHECK-NEXT: to end: [O_x, r] -> { WI[x, y = 0, z = 0] : x >= 0 and -O_x + r < x <= 15; WI[x = 0, y = 0, z = 0] : O_x = 0 }
; CHECK: branch kernel.body: uniform tiles [O_x, w] -> { WI[x, y = 0, z = 0] : 0 <= x <= 15 and (w <= O_x or w >= 16 + O_x) }

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define i64 @gid_x() alwaysinline {
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  ret i64 %g
}

define spir_kernel void @guards(ptr %out, ptr %out2, i32 %w, i32 %r) {
entry:
  %g = call i64 @gid_x()
  %x = trunc i64 %g to i32
  %idx = zext i32 %x to i64
  %p = getelementptr inbounds float, ptr %out, i64 %idx
  %c1 = icmp ult i32 %x, %w
  br i1 %c1, label %first, label %next

first:
  store float 1.0, ptr %p
  br label %next

next:
  %xm1 = add i32 %x, -1
  %c2 = icmp ult i32 %xm1, %r
  br i1 %c2, label %second, label %end

second:
  %p2 = getelementptr inbounds float, ptr %out2, i64 %idx
  store float 2.0, ptr %p2
  br label %end

end:
  ret void
}
