; print<iss-model> on a tail guard: the branch is uniform on every tile but
; the one that n cuts, so the hot piece has two ranges around it, where the
; branch is always taken (below) or never (above).
;
; __kernel void saxpy(__global float *y, __global const float *x, float a,
;                     int n) {
;   int i = get_global_id(0);
;   if (i < n)
;     y[i] = a * x[i] + y[i];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=saxpy -iss-local-size=64,1,1 -o /dev/null %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @saxpy(ptr %y, ptr %x, float %a, i32 %n) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %end

then:
  %ii = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ii
  %vx = load float, ptr %px
  %py = getelementptr inbounds float, ptr %y, i64 %ii
  %vy = load float, ptr %py
  %r = call float @llvm.fmuladd.f32(float %a, float %vx, float %vy)
  store float %r, ptr %py
  br label %end

end:
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

; CHECK-LABEL: iss-model of @saxpy, local size 64x1x1
; CHECK-NEXT: assumed: [O_x] -> {  : O_x <= 2147483584 }
; CHECK: block then: [O_x, n] -> { WI[x, y = 0, z = 0] : 0 <= x < -O_x + n and x <= 63 }
; CHECK: branch kernel.body: affine
; CHECK-NEXT: to then: [O_x, n] -> { WI[x, y = 0, z = 0] : 0 <= x < -O_x + n and x <= 63 }
; CHECK-NEXT: to end: [O_x, n] -> { WI[x, y = 0, z = 0] : x >= 0 and -O_x + n <= x <= 63 }
; CHECK: load then 4 bytes at %x + [O_x] -> { WI[x, y, z] -> [(4O_x + 4x)] }
; The tile that n cuts is the only one where the guard diverges; the other
; tiles of the hot cell go one way each.
; CHECK-LABEL: dimension x, width 8:
; CHECK: pieces:
; CHECK-NEXT: 0 (full, consecutive, uniform control, kernel.body to then): [O_x, n] -> { WI[x, y = 0, z = 0] : 0 <= x <= 63 and 8*floor((x)/8) <= -8 - O_x + n }
; CHECK-NEXT: 1 (full, consecutive, uniform control, kernel.body to end): [O_x, n] -> { WI[x, y = 0, z = 0] : 0 <= x <= 63 and 8*floor((x)/8) >= -O_x + n }
; CHECK-NEXT: 2 (full, consecutive, divergent control): [O_x, n] -> { WI[x, y = 0, z = 0] : 0 <= x <= 63 and 8*floor((-O_x + n)/8) >= -7 + x and 8*floor((-O_x + n)/8) < -O_x + n and 8*floor((-O_x + n)/8) <= x }
; CHECK-NEXT: ranges of x:
; CHECK-NEXT: [0, [[CUT:O_x >= n \+ 1 \? 0 : n >= O_x \+ 64 \? 64 : -\(\(-O_x \+ n\) % 8\) - O_x \+ n]]): piece 0
; CHECK-NEXT: accesses: cons cons cons
; CHECK-NEXT: branch kernel.body: always to then
; CHECK-NEXT: [[[CUT]], [[CUT2:.+]]): piece 2
; CHECK-NEXT: accesses: cons cons cons
; CHECK-NEXT: branch kernel.body: divergent
; CHECK-NEXT: [[[CUT2]], 64): piece 1
; CHECK-NEXT: accesses: uni uni uni
; CHECK-NEXT: branch kernel.body: always to end
