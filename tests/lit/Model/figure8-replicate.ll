; print<iss-model> on the paper's Figure 8: the write to A is consecutive in
; the first dimension, the read of B consecutive in the second and uniform
; in the first. ly * width is not affine, but only y changes it: an opaque
; parameter for the predicates of x, non-affine for those of y.
;
; __kernel void replicate(__global float *A, __global float *B, int width) {
;   A[get_local_id(1) * width + get_local_id(0)] = B[get_local_id(1)];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=replicate -iss-local-size=16,16,1 -o /dev/null %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64

define spir_kernel void @replicate(ptr %A, ptr %B, i32 %width) {
entry:
  %lx = load i64, ptr @_local_id_x
  %ly = load i64, ptr @_local_id_y
  %y = trunc i64 %ly to i32
  %x = trunc i64 %lx to i32
  %yi = sext i32 %y to i64
  %pb = getelementptr inbounds float, ptr %B, i64 %yi
  %v = load float, ptr %pb
  %row = mul nsw i32 %y, %width
  %idx = add nsw i32 %row, %x
  %ii = sext i32 %idx to i64
  %pa = getelementptr inbounds float, ptr %A, i64 %ii
  store float %v, ptr %pa
  ret void
}

; CHECK-LABEL: iss-model of @replicate, local size 16x16x1
; CHECK: load kernel.body 4 bytes at %B + { WI[x, y, z] -> [(4y)] }
; CHECK: store kernel.body 4 bytes at %A + [u_row] -> { WI[x, y, z] -> [(4u_row + 4x)] }
; CHECK-LABEL: dimension x, width 8:
; CHECK: load kernel.body #0: uniform address
; CHECK-NEXT: store kernel.body #1:
; CHECK-NEXT: consecutive at { WI[x, y, z = 0] : 0 <= x <= 15 and 0 <= y <= 15 }
; CHECK: ranges of x:
; CHECK-NEXT: [0, 16): piece 0
; CHECK-NEXT: accesses: uni cons
; CHECK-LABEL: dimension y, width 8:
; CHECK: load kernel.body #0:
; CHECK-NEXT: consecutive at { WI[x, y, z = 0] : 0 <= x <= 15 and 0 <= y <= 15 }
; CHECK-NEXT: uniform at { WI[x, y, z] : false }
; CHECK: store kernel.body #1: non-affine
; CHECK: ranges of y:
; CHECK-NEXT: [0, 16): piece 0
; CHECK-NEXT: accesses: cons div
