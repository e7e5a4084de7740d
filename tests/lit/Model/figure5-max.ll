; print<iss-model> on the paper's Figure 5: an irregular access B[max(5, x)]
; that the pointwise predicates split at x >= 5 (consecutive from there,
; uniform below), and the tile predicates at the first tile of x >= 5 only.
; The library's max stays a call of a function without memory accesses
; until the work-item loops exist (iss-prepare); the model reads its body.
; InstCombine's form, umax of a non-negative id, is modelled as well.
;
; __kernel void foo(__global float *A, __global float *B) {
;   int x = get_local_id(0);
;   A[x] = B[max(5, x)];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=foo -iss-local-size=16,1,1 -o /dev/null %s 2>&1 | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=foo -iss-local-size=16,1,1 -iss-vector-width=4 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=W4
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=foo_umax -iss-local-size=16,1,1 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=UMAX

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @foo(ptr %A, ptr %B) {
entry:
  %lid = load i64, ptr @_local_id_x
  %x = trunc i64 %lid to i32
  %m = call spir_func i32 @_Z3maxii(i32 5, i32 %x)
  %mi = sext i32 %m to i64
  %pb = getelementptr inbounds float, ptr %B, i64 %mi
  %v = load float, ptr %pb
  %xi = sext i32 %x to i64
  %pa = getelementptr inbounds float, ptr %A, i64 %xi
  store float %v, ptr %pa
  ret void
}

define spir_kernel void @foo_umax(ptr %A, ptr %B) {
entry:
  %lid = load i64, ptr @_local_id_x
  %m = call i64 @llvm.umax.i64(i64 %lid, i64 5)
  %pb = getelementptr inbounds float, ptr %B, i64 %m
  %v = load float, ptr %pb
  %pa = getelementptr inbounds float, ptr %A, i64 %lid
  store float %v, ptr %pa
  ret void
}

define spir_func i32 @_Z3maxii(i32 %a, i32 %b) {
  %r = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  ret i32 %r
}

declare i32 @llvm.smax.i32(i32, i32)
declare i64 @llvm.umax.i64(i64, i64)

; The model: B's offset in bytes is piecewise, 20 up to x = 5, then 4x.
; CHECK-LABEL: iss-model of @foo, local size 16x1x1
; CHECK-NEXT: assumed: {  :  }
; CHECK: domain: { WI[x, y = 0, z = 0] : 0 <= x <= 15 }
; CHECK: load kernel.body 4 bytes at %B + { WI[x, y, z] -> [(20)] : x <= 5; WI[x, y, z] -> [(4x)] : x >= 6 }
; CHECK: store kernel.body 4 bytes at %A + { WI[x, y, z] -> [(4x)] }
; The paper's predicates split at x >= 5; the tiles of 8 at 8.
; CHECK-LABEL: region entry.barrier, dimension x, width 8:
; CHECK-NEXT: full tiles: { WI[x, y = 0, z = 0] : 0 <= x <= 15 }
; CHECK-NEXT: load kernel.body #0:
; CHECK-NEXT: consecutive at { WI[x, y = 0, z = 0] : 5 <= x <= 15 }
; CHECK-NEXT: uniform at { WI[x, y = 0, z = 0] : 0 <= x <= 4 }
; CHECK-NEXT: consecutive tiles { WI[x, y = 0, z = 0] : 8 <= x <= 15 }
; CHECK-NEXT: uniform tiles { WI[x, y, z] : false }
; CHECK-NEXT: store kernel.body #1:
; CHECK-NEXT: consecutive at { WI[x, y = 0, z = 0] : 0 <= x <= 15 }
; CHECK: I_C: { WI[x, y = 0, z = 0] : 8 <= x <= 15 }
; CHECK-NEXT: pieces:
; CHECK-NEXT: 0 (full, consecutive, uniform control): { WI[x, y = 0, z = 0] : 8 <= x <= 15 }
; CHECK-NEXT: 1 (full, remainder): { WI[x, y = 0, z = 0] : 0 <= x <= 7 }
; CHECK-NEXT: ranges of x:
; CHECK-NEXT: [0, 8): piece 1
; CHECK-NEXT: accesses: div cons
; CHECK-NEXT: [8, 16): piece 0
; CHECK-NEXT: accesses: cons cons

; With tiles of 4 the first tile is uniform: all its lanes read B[5].
; W4-LABEL: region entry.barrier, dimension x, width 4:
; W4: consecutive at { WI[x, y = 0, z = 0] : 5 <= x <= 15 }
; W4-NEXT: uniform at { WI[x, y = 0, z = 0] : 0 <= x <= 4 }
; W4-NEXT: consecutive tiles { WI[x, y = 0, z = 0] : 8 <= x <= 15 }
; W4-NEXT: uniform tiles { WI[x, y = 0, z = 0] : 0 <= x <= 3 }
; W4: ranges of x:
; W4-NEXT: [0, 8): piece 1
; W4: [8, 16): piece 0

; umax(x, 5) of a non-negative id is max(x, 5): no assumption needed.
; UMAX-LABEL: iss-model of @foo_umax
; UMAX-NEXT: assumed: {  :  }
; UMAX: load kernel.body 4 bytes at %B + { WI[x, y, z] -> [(20)] : x <= 4; WI[x, y, z] -> [(4x)] : x >= 5 }
; UMAX: consecutive at { WI[x, y = 0, z = 0] : 5 <= x <= 15 }
; UMAX: I_C: { WI[x, y = 0, z = 0] : 8 <= x <= 15 }
