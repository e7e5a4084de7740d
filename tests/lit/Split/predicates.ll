; print<iss-predicates>: the plan the splitting predicates give each region
; for the iss-* options, as iss-split gets it, or why the region runs
; unsplit.
;
; saxpy, a tail guard: three ranges, below n (the guard always taken), the
; tile n cuts (the guard stays: a scalar loop, the region as written) and
; above n (never taken: the accesses never run, vacuously uniform).
; __kernel void saxpy(__global float *y, __global const float *x, float a,
;                     int n) {
;   int i = get_global_id(0);
;   if (i < n)
;     y[i] = a * x[i] + y[i];
; }
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s
; split+score plans alike for its subkernel along x.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split+score -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=SCORE
; Negative: the refusal past the limit on ranges (the remark's reason), and
; the regions iss-split leaves unsplit without a remark or does not ask
; about: fewer work-items than lanes, a mode that does not split, one piece
; allowed, one work-item along x.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-split-pieces=2 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=LIMIT
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=saxpy -iss-local-size=4,1,1 -iss-vector-width=8 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=NARROW
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=vec -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=VEC
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-split-pieces=1 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=ONEPIECE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=saxpy -iss-local-size=1,1,1 -iss-vector-width=8 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=ONE
;
; copy: nothing depends on x but the addresses, which step alike on every
; tile: the model shows it before any predicate is computed.
; __kernel void copy(__global float *out, __global const float *in) {
;   size_t i = get_global_id(0);
;   out[i] = in[i];
; }
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=copy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=COPY

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

define spir_kernel void @copy(ptr %out, ptr %in) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %i = add i64 %g0, %lid
  %pin = getelementptr inbounds float, ptr %in, i64 %i
  %v = load float, ptr %pin
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  store float %v, ptr %pout
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)

; CHECK-LABEL: iss-predicates of @saxpy, local size 64x1x1, split, x with 8 lanes
; CHECK-NEXT: region entry.barrier: 3 ranges of 3 pieces
; The hot cell, split by the guard's fate; the tile n cuts.
; CHECK-NEXT: piece 0 (full, consecutive, uniform control, kernel.body to then): whole tiles, [O_x, n] -> { WI[x, y = 0, z = 0] : 0 <= x <= 63 and 8*floor((x)/8) <= -8 - O_x + n }
; CHECK-NEXT: piece 1 (full, consecutive, uniform control, kernel.body to end): whole tiles, [O_x, n] -> { WI[x, y = 0, z = 0] : 0 <= x <= 63 and 8*floor((x)/8) >= -O_x + n }
; CHECK-NEXT: piece 2 (full, consecutive, divergent control): scalar,
; In order along x: below n, the tile n cuts, above n.
; CHECK-NEXT: range 0 [0, O_x >= n + 1 ? 0 : n >= O_x + 64 ? 64 : -((-O_x + n) % 8) - O_x + n): piece 0; accesses 3 consecutive, 0 uniform, 0 divergent; branches 1 of 1 folded{{$}}
; CHECK-NEXT: range 1 [{{.*}}): piece 2; accesses 3 consecutive, 0 uniform, 0 divergent; branches 0 of 1 folded{{$}}
; CHECK-NEXT: range 2 [{{.*}}, 64): piece 1; accesses 0 consecutive, 3 uniform, 0 divergent; branches 1 of 1 folded{{$}}
; CHECK-NEXT: copies: {0} {1} {2}
; CHECK-NEXT: edges: {}
; CHECK-NEXT: unspecialized range: 1
; CHECK-NOT: region

; SCORE-LABEL: iss-predicates of @saxpy, local size 64x1x1, split+score, x with 8 lanes
; SCORE-NEXT: region entry.barrier: 3 ranges of 3 pieces

; LIMIT-LABEL: iss-predicates of @saxpy
; LIMIT-NEXT: region entry.barrier: not split: 3 ranges, more than 2 (POCL_ISS_MAX_PIECES)

; NARROW-LABEL: iss-predicates of @saxpy, local size 4x1x1, split, x with 8 lanes
; NARROW-NEXT: region entry.barrier: not split: fewer work-items than lanes, no whole tile

; VEC-LABEL: iss-predicates of @saxpy, local size 64x1x1, vec, x with 8 lanes
; VEC-NEXT: not split: the mode does not split
; VEC-NOT: region

; ONEPIECE-LABEL: iss-predicates of @saxpy
; ONEPIECE-NEXT: not split: one piece at most (POCL_ISS_MAX_PIECES)

; ONE-LABEL: iss-predicates of @saxpy, local size 1x1x1
; ONE-NEXT: not split: one work-item along the vectorized dimension

; COPY-LABEL: iss-predicates of @copy, local size 64x1x1, split, x with 8 lanes
; COPY-NEXT: region entry.barrier: not split: nothing a split could fold or mend, as the model shows before any predicate
; COPY-NOT: ranges
