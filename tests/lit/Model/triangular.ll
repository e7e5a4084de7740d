; print<iss-model> on a triangular guard: the lower triangle of a tile of
; work-items. For x vectorized, the ranges depend on the outer id y: the
; tiles left of the diagonal take the branch, the one on it diverges, the
; rest skip it. For y vectorized, the same with x outside.
;
; __kernel void lower(__global float *A, int n) {
;   size_t x = get_local_id(0), y = get_local_id(1);
;   if (x <= y)
;     A[y * 16 + x] = 0;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=lower -iss-local-size=16,16,1 -o /dev/null %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64

define spir_kernel void @lower(ptr %A, i32 %n) {
entry:
  %x = load i64, ptr @_local_id_x
  %y = load i64, ptr @_local_id_y
  %c = icmp ule i64 %x, %y
  br i1 %c, label %then, label %end

then:
  %row = shl nuw nsw i64 %y, 4
  %i = add nuw nsw i64 %row, %x
  %p = getelementptr inbounds float, ptr %A, i64 %i
  store float 0.0, ptr %p
  br label %end

end:
  ret void
}

; CHECK-LABEL: iss-model of @lower, local size 16x16x1
; CHECK: block then: { WI[x, y, z = 0] : x >= 0 and x <= y <= 15 }
; CHECK: branch kernel.body: affine
; CHECK-NEXT: to then: { WI[x, y, z = 0] : x >= 0 and x <= y <= 15 }
; CHECK-NEXT: to end: { WI[x, y, z = 0] : x <= 15 and 0 <= y < x }
; CHECK: store then 4 bytes at %A + { WI[x, y, z] -> [(4x + 64y)] }
; CHECK-LABEL: dimension x, width 8:
; CHECK: pieces:
; CHECK-NEXT: 0 (full, consecutive, uniform control, kernel.body to then): { WI[x, y, z = 0] : 0 <= x <= 7 and 7 <= y <= 15; WI[x, y = 15, z = 0] : 8 <= x <= 15 }
; CHECK-NEXT: 1 (full, consecutive, uniform control, kernel.body to end): { WI[x, y, z = 0] : 8 <= x <= 15 and 0 <= y <= 7 }
; CHECK-NEXT: 2 (full, consecutive, divergent control): { WI[x, y, z = 0] : 0 <= x <= 15 and 0 <= y <= 14 and ((x >= 8 and y >= 8) or (x <= 7 and y <= 6)) }
; CHECK-NEXT: ranges of x:
; CHECK-NEXT: [0, y <= 6 ? 0 : y >= 7 && y <= 14 ? 8 : 16): piece 0
; CHECK-NEXT: accesses: cons
; CHECK-NEXT: branch kernel.body: always to then
; CHECK-NEXT: [y <= 6 ? 0 : y >= 7 && y <= 14 ? 8 : 16, y <= 7 ? 8 : 16): piece 2
; CHECK-NEXT: accesses: cons
; CHECK-NEXT: branch kernel.body: divergent
; CHECK-NEXT: [y <= 7 ? 8 : 16, 16): piece 1
; CHECK-NEXT: accesses: uni
; CHECK-NEXT: branch kernel.body: always to end
; The store's stride in y is a row: divergent where two lanes run it. The
; column x = 0 takes the branch everywhere: its first tile of y comes
; before the others' pieces, in a slot of its own (empty for x > 0).
; CHECK-LABEL: dimension y, width 8:
; CHECK: ranges of y:
; CHECK-NEXT: [0, x >= 1 ? 0 : 8): piece 0
; CHECK-NEXT: accesses: div
; CHECK-NEXT: branch kernel.body: always to then
; CHECK-NEXT: [x >= 1 ? 0 : 8, x >= 1 && x <= 7 ? 0 : 8): piece 1
; CHECK-NEXT: accesses: uni
; CHECK-NEXT: branch kernel.body: always to end
; CHECK-NEXT: [x >= 1 && x <= 7 ? 0 : 8, x <= 8 ? 8 : 16): piece 2
; CHECK-NEXT: accesses: div
; CHECK-NEXT: branch kernel.body: divergent
; CHECK-NEXT: [x <= 8 ? 8 : 16, 16): piece 0
; CHECK-NEXT: accesses: div
; CHECK-NEXT: branch kernel.body: always to then
