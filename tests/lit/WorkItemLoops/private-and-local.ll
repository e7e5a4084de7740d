; A private array that SROA cannot split (indexed by data) gets one copy per
; work-item, addressed by the linear local id; a function-scope __local
; array (@k.scratch) becomes the first trailing argument slot.
;
; __kernel void k(__global int *out, __global const int *idx) {
;   __local int scratch[64];
;   int tmp[16];
;   ... tmp[k] = ...; scratch[lid] = tmp[idx[i]]; ...
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=8,2,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@k.scratch = internal global [64 x i32] undef, align 16
@k.table = internal constant [2 x i32] [i32 1, i32 2]

define spir_kernel void @k(ptr %out, ptr %idx) {
entry:
  %tmp = alloca [16 x i32], align 16
  %x = load i64, ptr @_local_id_x
  %p0 = getelementptr inbounds [16 x i32], ptr %tmp, i64 0, i64 %x
  store i32 7, ptr %p0
  %ip = getelementptr inbounds i32, ptr %idx, i64 %x
  %i = load i32, ptr %ip
  %ii = sext i32 %i to i64
  %p1 = getelementptr inbounds [16 x i32], ptr %tmp, i64 0, i64 %ii
  %v = load i32, ptr %p1
  %sp = getelementptr inbounds [64 x i32], ptr @k.scratch, i64 0, i64 %x
  store i32 %v, ptr %sp
  %t = load i32, ptr getelementptr inbounds ([2 x i32], ptr @k.table, i64 0, i64 1)
  %w = add i32 %v, %t
  %op = getelementptr inbounds i32, ptr %out, i64 %x
  store i32 %w, ptr %op
  ret void
}

; iss-context replaces the array with its per-work-item copies.
; CHECK-LABEL: define internal void @k(
; CHECK-NOT: alloca [16 x i32]
; CHECK: %tmp.wi = alloca [16 x [16 x i32]], align 64
; CHECK-NOT: alloca [16 x i32]
; CHECK-LABEL: define void @__iss_sub_k_0
; CHECK: %[[COPIES:.*]] = alloca [16 x [16 x i32]], align 64
; CHECK: %[[SLOT:.*]] = getelementptr inbounds ptr, ptr %args, i64 2
; CHECK: %k.scratch.slot = load ptr, ptr %[[SLOT]]
; CHECK: %k.scratch = load ptr, ptr %k.scratch.slot
; CHECK: wi.y.header:
; CHECK: wi.x.header:
; Each use of tmp addresses the copy of the calling work-item.
; CHECK: %[[ROW:.*]] = mul nuw nsw i64 %local_id_y, 8
; CHECK: %[[LIN:.*]] = add nuw nsw i64 %[[ROW]], %local_id_x
; CHECK: %[[MINE:.*]] = getelementptr inbounds [16 x [16 x i32]], ptr %[[COPIES]], i64 0, i64 %[[LIN]]
; CHECK: getelementptr inbounds [16 x i32], ptr %[[MINE]], i64 0, i64 %local_id_x
; CHECK: %[[ROW2:.*]] = mul nuw nsw i64 %local_id_y, 8
; CHECK: %[[LIN2:.*]] = add nuw nsw i64 %[[ROW2]], %local_id_x
; CHECK: %[[MINE2:.*]] = getelementptr inbounds [16 x [16 x i32]], ptr %[[COPIES]], i64 0, i64 %[[LIN2]]
; CHECK: getelementptr inbounds [16 x i32], ptr %[[MINE2]], i64 0, i64 %ii
; CHECK: getelementptr inbounds [64 x i32], ptr %k.scratch, i64 0, i64 %local_id_x
; The load from the constant table folds to its value.
; CHECK: add i32 %{{.*}}, 2
; CHECK-NOT: alloca [16 x i32]
; CHECK: ret void
