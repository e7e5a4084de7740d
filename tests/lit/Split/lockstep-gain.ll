; iss-split in `split` mode: a kernel loop whose trip count diverges
; only where a parameter cuts a tile is a reason to split by itself. Here
; the loop runs 4 times below n and 8 times from n on; its addresses are
; consecutive everywhere and it has no branch to fold, but no mode runs it
; in lock-step unsplit (the uniformity analysis sees a divergent exit), so
; `vec` runs it once per work-item, scalar. Split, the whole tiles on each
; side run it in lock-step, the loop over lanes inside (its exit a test of
; the counter against 3 and against 7), and the tile n cuts runs scalar.
;
; __kernel void steps(__global float *b, __global const float *a, int n) {
;   int i = get_global_id(0);
;   int m = i < n ? 4 : 8;
;   float s = 0;
;   for (int j = 0; j < m; ++j)
;     s += a[i + j];
;   b[i] = s;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=steps -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=steps -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops' -iss-kernel=steps -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s --check-prefix=VEC

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @steps(ptr %b, ptr %a, i32 %n) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  %below = icmp slt i32 %i, %n
  %m = select i1 %below, i32 4, i32 8
  br label %for.cond

for.cond:
  %s = phi float [ 0.0, %entry ], [ %s.next, %for.body ]
  %j = phi i32 [ 0, %entry ], [ %j.next, %for.body ]
  %c = icmp slt i32 %j, %m
  br i1 %c, label %for.body, label %for.end

for.body:
  %ij = add nsw i32 %i, %j
  %ij.64 = sext i32 %ij to i64
  %p = getelementptr inbounds float, ptr %a, i64 %ij.64
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %j.next = add nsw i32 %j, 1
  br label %for.cond

for.end:
  %i.64 = sext i32 %i to i64
  %pb = getelementptr inbounds float, ptr %b, i64 %i.64
  store float %s, ptr %pb
  ret void
}

; CHECK-LABEL: define void @__iss_sub_steps_0(
; Below n: four times, in lock-step.
; CHECK: wi.x.tiles.header:
; CHECK: wi.lanes:
; CHECK: %{{[0-9]+}} = icmp sle i64 %iss.iter.reload, 3
; The tile n cuts: scalar, the loop as written.
; CHECK: wi.x.range.header:
; CHECK: %c{{[0-9]*}} = icmp slt i32 %j{{[0-9]*}}, %m
; From n on: eight times, in lock-step.
; CHECK: wi.x.tiles.header{{[0-9]+}}:
; CHECK: wi.lanes{{[0-9]+}}:
; CHECK: %{{[0-9]+}} = icmp sle i64 %iss.iter{{[0-9]+}}.reload, 7
; CHECK-LABEL: define i32 @__iss_select_steps(

; VEC-LABEL: define void @__iss_sub_steps_0(
; VEC-NOT: wi.lanes
; VEC-NOT: wi.x.range.header
; VEC: %c{{[0-9]*}} = icmp slt i32 %j{{[0-9]*}}, %m
; VEC-NOT: wi.lanes
; VEC-LABEL: define i32 @__iss_select_steps(
