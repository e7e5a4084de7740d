; print<iss-model> on the paper's Figure 6: full tile splitting. With a local
; size of 30 and tiles of 8, the tiles from 24 on are partial; the global id
; is x + O_x (Table 2) and, truncated to int, exact where O_x + 29 fits in
; 32 bits: the assumption the split pass checks at run time.
;
; __kernel void k(__global float *A, __global float *B) {
;   int i = get_global_id(0);
;   A[i] = 2 * B[i];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=k -iss-local-size=30,1,1 -o /dev/null %s 2>&1 | FileCheck %s
; A local size that is a multiple of the width has no partial tile.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=k -iss-local-size=32,1,1 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=L32

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @k(ptr %A, ptr %B) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  %ii = sext i32 %i to i64
  %pb = getelementptr inbounds float, ptr %B, i64 %ii
  %v = load float, ptr %pb
  %m = fmul float %v, 2.0
  %pa = getelementptr inbounds float, ptr %A, i64 %ii
  store float %m, ptr %pa
  ret void
}

; CHECK-LABEL: iss-model of @k, local size 30x1x1
; CHECK-NEXT: assumed: [O_x] -> {  : O_x <= 2147483618 }
; CHECK: load kernel.body 4 bytes at %B + [O_x] -> { WI[x, y, z] -> [(4O_x + 4x)] }
; CHECK: store kernel.body 4 bytes at %A + [O_x] -> { WI[x, y, z] -> [(4O_x + 4x)] }
; CHECK-LABEL: dimension x, width 8:
; CHECK-NEXT: full tiles: { WI[x, y = 0, z = 0] : 0 <= x <= 23 }
; CHECK: I_C: { WI[x, y = 0, z = 0] : 0 <= x <= 29 }
; CHECK-NEXT: pieces:
; CHECK-NEXT: 0 (full, consecutive, uniform control): { WI[x, y = 0, z = 0] : 0 <= x <= 23 }
; CHECK-NEXT: 1 (partial, consecutive): { WI[x, y = 0, z = 0] : 24 <= x <= 29 }
; CHECK-NEXT: ranges of x:
; CHECK-NEXT: [0, 24): piece 0
; CHECK-NEXT: accesses: cons cons
; CHECK-NEXT: [24, 30): piece 1
; CHECK-NEXT: accesses: cons cons

; L32: assumed: [O_x] -> {  : O_x <= 2147483616 }
; L32: full tiles: { WI[x, y = 0, z = 0] : 0 <= x <= 31 }
; L32: pieces:
; L32-NEXT: 0 (full, consecutive, uniform control): { WI[x, y = 0, z = 0] : 0 <= x <= 31 }
; L32-NEXT: ranges of x:
; L32-NEXT: [0, 32): piece 0
