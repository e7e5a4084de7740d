; iss-subkernels (the input-space-splitting paper, section 4.1): one
; subkernel per work-item dimension, scored by equation 1, the dominated
; ones dropped at compile time, and __iss_select_<kernel> picking the
; highest score per launch.
;
; rows: consecutive along y (a row-major matrix walked by columns),
; __kernel void rows(__global float *out, __global const float *in,
;                    __global const float *b, int n) {
;   long x = get_global_id(0), y = get_global_id(1);
;   out[x * n + y] = in[x * n + y] + b[x];
; }
; Along x, only b[x] is consecutive (2 * X * Y); along y, in and out are,
; and b[x] is uniform (2 + 2 + 1 = 5 * X * Y, the same box): y dominates x
; term by term, and its score is at least 5 * 64 for every launch, so it
; dominates the scalar fallback (score 1) too. One subkernel, vectorizing
; y, and a selection that returns 0.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=rows -iss-local-size=8,8,1 -iss-vector-width=8 -iss-mode=split+score -S %s | FileCheck %s --check-prefix=ROWS
; The scores (print<iss-scores>, in iss-subkernels' place): products of
; the extents of the boxes over the launch, the group counts iss_N<d> times
; the local size; x's in and out are gathers (w_div = 0.5 each). Each part
; is a box over the launch, so its box volume is its exact size.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,print<iss-scores>' -iss-kernel=rows -iss-local-size=8,8,1 -iss-vector-width=8 -iss-mode=split+score -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=SCORES
; Negative: no scores in `vec`, nor without a dimension to vectorize.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,print<iss-scores>' -iss-kernel=rows -iss-local-size=8,8,1 -iss-vector-width=8 -iss-mode=vec -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=NOSCORES-VEC
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,print<iss-scores>' -iss-kernel=rows -iss-local-size=1,1,1 -iss-vector-width=8 -iss-mode=split+score -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=NOSCORES-ONE
; The same in `score` mode: the subkernel is not split (no ranges).
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=rows -iss-local-size=8,8,1 -iss-vector-width=8 -iss-mode=score -S %s | FileCheck %s --check-prefix=SCORE
; POCL_ISS_DIMS=0 leaves x alone: the x subkernel is kept, and the scalar
; fallback beside it (2 * 64 >= 1: dominated too).
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=rows -iss-local-size=8,8,1 -iss-vector-width=8 -iss-mode=split+score -iss-dims=0 -S %s | FileCheck %s --check-prefix=DIMS
; cols, the transpose: out[y * n + x] = in[y * n + x] * b[y]. Along x it
; scores 5 * X * Y, along y 2 * X * Y: x dominates y. With a local size of
; 2x16, x has too few work-items for a vector: the paper's elimination,
; blind to that, would drop the only subkernel that vectorizes; here y
; stays (and dominates the scalar fallback).
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=cols -iss-local-size=2,16,1 -iss-vector-width=8 -iss-mode=split+score -S %s | FileCheck %s --check-prefix=NARROW
; A dimension shorter than the width gets a narrower vector (4 of 8 lanes).
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=cols -iss-local-size=4,4,1 -iss-mode=split+score -S %s | FileCheck %s --check-prefix=W4
; Its loop of 4 work-items, fewer than the 8 lanes the compilation was
; given, is left to LLVM's full unroller (WorkItemLoops/basic.ll); the
; subkernel of 8 lanes for 8x8 groups keeps it off. Once unrolled, the
; outer x loop would be innermost and the loop vectorizer could take x,
; across the y-major context arrays: it is kept scalar (its copies of the
; unrolled y lanes are the SLP vectorizer's), but not in 8x8 groups.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=rows -iss-local-size=4,4,1 -iss-mode=score -S %s | FileCheck %s --check-prefix=UNROLL4
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=rows -iss-local-size=8,8,1 -iss-mode=score -S %s | FileCheck %s --check-prefix=ROLLED8
;
; either: consecutive along y where f != 0, along x where f == 0:
; __kernel void either(__global float *out, int n, int f) {
;   long x = get_global_id(0), y = get_global_id(1);
;   if (f) out[x * n + y] = 1; else out[y * n + x] = 1;
; }
; Neither subkernel wins for every launch: both stay, with the scalar
; fallback (each scores 0 for some f), and the selection compares the
; scores at run time, reading f from its slot and the group counts from
; the context.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=either -iss-local-size=8,8,1 -iss-vector-width=8 -iss-mode=split+score -S %s | FileCheck %s --check-prefix=EITHER

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_local_size_x = external global i64
@_local_size_y = external global i64
@_group_id_x = external global i64
@_group_id_y = external global i64
@_global_offset_x = external global i64
@_global_offset_y = external global i64

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

define i64 @gid_y() alwaysinline {
  %off = load i64, ptr @_global_offset_y
  %gid = load i64, ptr @_group_id_y
  %ls = load i64, ptr @_local_size_y
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_y
  %g = add i64 %g0, %lid
  ret i64 %g
}

define spir_kernel void @rows(ptr %out, ptr %in, ptr %b, i32 %n) {
entry:
  %x = call i64 @gid_x()
  %y = call i64 @gid_y()
  %n64 = sext i32 %n to i64
  %xn = mul nsw i64 %x, %n64
  %i = add nsw i64 %xn, %y
  %pin = getelementptr inbounds float, ptr %in, i64 %i
  %vin = load float, ptr %pin
  %pb = getelementptr inbounds float, ptr %b, i64 %x
  %vb = load float, ptr %pb
  %s = fadd float %vin, %vb
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  store float %s, ptr %pout
  ret void
}

define spir_kernel void @cols(ptr %out, ptr %in, ptr %b, i32 %n) {
entry:
  %x = call i64 @gid_x()
  %y = call i64 @gid_y()
  %n64 = sext i32 %n to i64
  %yn = mul nsw i64 %y, %n64
  %i = add nsw i64 %yn, %x
  %pin = getelementptr inbounds float, ptr %in, i64 %i
  %vin = load float, ptr %pin
  %pb = getelementptr inbounds float, ptr %b, i64 %y
  %vb = load float, ptr %pb
  %s = fmul float %vin, %vb
  %pout = getelementptr inbounds float, ptr %out, i64 %i
  store float %s, ptr %pout
  ret void
}

define spir_kernel void @either(ptr %out, i32 %n, i32 %f) {
entry:
  %x = call i64 @gid_x()
  %y = call i64 @gid_y()
  %n64 = sext i32 %n to i64
  %c = icmp ne i32 %f, 0
  br i1 %c, label %byrow, label %bycol

byrow:
  %xn = mul nsw i64 %x, %n64
  %i = add nsw i64 %xn, %y
  %p = getelementptr inbounds float, ptr %out, i64 %i
  store float 1.0, ptr %p
  br label %end

bycol:
  %yn = mul nsw i64 %y, %n64
  %j = add nsw i64 %yn, %x
  %q = getelementptr inbounds float, ptr %out, i64 %j
  store float 1.0, ptr %q
  br label %end

end:
  ret void
}

; ROWS: define i32 @__iss_select_rows(ptr %0, ptr %1)
; ROWS-NEXT: entry:
; ROWS-NEXT: ret i32 0
; ROWS-LABEL: define void @__iss_sub_rows_0
; ROWS-NOT: define
; ROWS: wi.x.header:
; ROWS-NOT: define
; ROWS: wi.y.header:
; ROWS-NOT: define void @__iss_sub_rows_1
; ROWS: !iss.subkernels = !{![[S:[0-9]+]]}
; ROWS: ![[S]] = !{!"rows", !"__iss_sub_rows_0", !"split+score:y/8"}

; SCORES-LABEL: iss-scores of @rows, local size 8x8x1, split+score
; SCORES-NEXT: subkernel split+score:x/8 (dominated), 3 of 3 parts exact, score 0 + 3 * [iss_N0] -> { [(8iss_N0)] } * [iss_N1] -> { [(8iss_N1)] } * [iss_N2] -> { [(iss_N2)] }{{$}}
; SCORES-NEXT: subkernel split+score:y/8, 3 of 3 parts exact, score 0 + 5 * [iss_N0] -> { [(8iss_N0)] } * [iss_N1] -> { [(8iss_N1)] } * [iss_N2] -> { [(iss_N2)] }{{$}}
; SCORES-NEXT: subkernel split+score:scalar (dominated), 0 of 0 parts exact, score 1{{$}}

; NOSCORES-VEC-LABEL: iss-scores of @rows, local size 8x8x1, vec
; NOSCORES-VEC-NEXT: one subkernel, not scored: the mode has no scores
; NOSCORES-VEC-NOT: subkernel
; NOSCORES-ONE-LABEL: iss-scores of @rows, local size 1x1x1, split+score
; NOSCORES-ONE-NEXT: one subkernel, not scored: no dimension to vectorize

; SCORE: !iss.subkernels = !{![[S:[0-9]+]]}
; SCORE: ![[S]] = !{!"rows", !"__iss_sub_rows_0", !"score:y/8"}

; DIMS: define i32 @__iss_select_rows
; DIMS: !iss.subkernels = !{![[S:[0-9]+]]}
; DIMS: ![[S]] = !{!"rows", !"__iss_sub_rows_0", !"split+score:x/8"}

; NARROW: !iss.subkernels = !{![[S:[0-9]+]]}
; NARROW: ![[S]] = !{!"cols", !"__iss_sub_cols_0", !"split+score:y/8"}

; W4: !iss.subkernels = !{![[S:[0-9]+]]
; W4: ![[S]] = !{!"cols", !"__iss_sub_cols_0", !"split+score:x/4"}

; EITHER-LABEL: define i32 @__iss_select_either(ptr %0, ptr %1)
; EITHER: getelementptr inbounds {{.*}} ptr %1, i32 0, i32 1
; EITHER: fcmp ogt double
; EITHER: select i1 {{.*}}, i32 1, i32 0
; EITHER: fcmp ogt double
; EITHER: select i1 {{.*}}, i32 2,
; EITHER: ret i32
; EITHER-DAG: define void @__iss_sub_either_0
; EITHER-DAG: define void @__iss_sub_either_1
; EITHER-DAG: define void @__iss_sub_either_2({{.*}}) #[[SCALAR:[0-9]+]]
; EITHER-DAG: attributes #[[SCALAR]] = { minsize {{.*}}"iss-scalar"
; EITHER: !iss.subkernels = !{![[X:[0-9]+]], ![[Y:[0-9]+]], ![[F:[0-9]+]]}
; EITHER: ![[X]] = !{!"either", !"__iss_sub_either_0", !"split+score:x/8"}
; EITHER: ![[Y]] = !{!"either", !"__iss_sub_either_1", !"split+score:y/8"}
; EITHER: ![[F]] = !{!"either", !"__iss_sub_either_2", !"split+score:scalar"}

; UNROLL4: br i1 %{{[0-9]+}}, label %wi.y.header, label %wi.y.done, !llvm.loop ![[Y4:[0-9]+]]
; UNROLL4: br i1 %{{[0-9]+}}, label %wi.x.header, label %wi.x.done, !llvm.loop ![[X4:[0-9]+]]
; UNROLL4: !{!"rows", !"__iss_sub_rows_0", !"score:y/4"}
; UNROLL4: ![[Y4]] = distinct !{![[Y4]], ![[PAR4:[0-9]+]]}
; UNROLL4: ![[X4]] = distinct !{![[X4]], ![[PAR4]], ![[W1:[0-9]+]]}
; UNROLL4: ![[W1]] = !{!"llvm.loop.vectorize.width", i32 1}
; UNROLL4-NOT: llvm.loop.unroll.disable
; ROLLED8: br i1 %{{[0-9]+}}, label %wi.x.header, label %wi.x.done, !llvm.loop ![[X8:[0-9]+]]
; ROLLED8: !{!"rows", !"__iss_sub_rows_0", !"score:y/8"}
; ROLLED8: !{!"llvm.loop.unroll.disable"}
; ROLLED8: ![[X8]] = distinct !{![[X8]], ![[PAR8:[0-9]+]]}
; ROLLED8-NOT: llvm.loop.vectorize.width
