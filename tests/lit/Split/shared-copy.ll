; iss-split in `split` mode: ranges whose specialised copies would be
; the same code share one copy (SplitPlan::copyClasses). A 1D smoothing
; step guarded on both sides (0 < i < n - 1), local size 64, 8 lanes, has
; four ranges: the tile that 0 cuts and the one that n - 1 cuts (scalar,
; the guard kept), the whole tiles between them (the guard folded to the
; loads and the store) and those above (folded away). The two cut tiles
; fold nothing and their accesses are alike: one copy runs both, in a loop
; over the class's ranges that stays a loop (unrolled, it would make the
; copies again). Three copies of the body in all, and the whole group's
; test has none of its own. The cut tiles' copy is the region as written:
; it also runs the groups whose assumptions fail, which join the ranges
; with range 0's bounds [0, 64) (region0.written): no unsplit copy.
;
; A wrap-around read, a[i < n ? i : i - n], is consecutive on the tiles
; below n and on those above, as one piece; but the recomputed address is
; 4 (O_x + x) in one range and 4 (O_x + x - n) in the other: one copy for
; both would compute it piecewise (correct, but not unit-stride to the
; vectorizer), so each keeps its own copy.
;
; __kernel void smooth(__global float *b, __global const float *a, int n) {
;   int i = get_global_id(0);
;   if (i > 0 && i < n - 1)
;     b[i] = a[i - 1] + a[i + 1];
; }
; __kernel void wrap(__global float *b, __global const float *a, int n) {
;   int i = get_global_id(0);
;   b[i] = a[i < n ? i : i - n];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=smooth -iss-local-size=64,1,1 -iss-vector-width=8 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=MODEL
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=smooth -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=smooth -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=wrap -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=wrap -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s --check-prefix=WRAP
; The classes as the plan gives them (print<iss-predicates>).
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=smooth -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=wrap -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-WRAP

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @smooth(ptr %b, ptr %a, i32 %n) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  %lo = icmp sgt i32 %i, 0
  %n1 = add nsw i32 %n, -1
  %hi = icmp slt i32 %i, %n1
  %c = and i1 %lo, %hi
  br i1 %c, label %then, label %end

then:
  %im = add nsw i32 %i, -1
  %ip = add nsw i32 %i, 1
  %im.64 = sext i32 %im to i64
  %ip.64 = sext i32 %ip to i64
  %i.64 = sext i32 %i to i64
  %pl = getelementptr inbounds float, ptr %a, i64 %im.64
  %pr = getelementptr inbounds float, ptr %a, i64 %ip.64
  %l = load float, ptr %pl
  %r = load float, ptr %pr
  %s = fadd float %l, %r
  %pb = getelementptr inbounds float, ptr %b, i64 %i.64
  store float %s, ptr %pb
  br label %end

end:
  ret void
}

define spir_kernel void @wrap(ptr %b, ptr %a, i32 %n) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  %lt = icmp slt i32 %i, %n
  %in = sub nsw i32 %i, %n
  %j = select i1 %lt, i32 %i, i32 %in
  %j.64 = sext i32 %j to i64
  %i.64 = sext i32 %i to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %j.64
  %v = load float, ptr %pa
  %pb = getelementptr inbounds float, ptr %b, i64 %i.64
  store float %v, ptr %pb
  ret void
}

; The two cut tiles share a copy, the region as written.
; PLAN-LABEL: iss-predicates of @smooth
; PLAN-NEXT: region entry.barrier: 4 ranges of 3 pieces
; PLAN: range 0 [{{.*}}): piece 2;
; PLAN-NEXT: range 1 [{{.*}}): piece 0;
; PLAN-NEXT: range 2 [{{.*}}): piece 2;
; PLAN-NEXT: range 3 [{{.*}}, 64): piece 1;
; PLAN-NEXT: copies: {0, 2} {1} {3}
; PLAN-NEXT: edges: {}
; PLAN-NEXT: unspecialized range: 0

; One piece, two ranges, two copies.
; PLAN-WRAP-LABEL: iss-predicates of @wrap
; PLAN-WRAP-NEXT: region entry.barrier: 3 ranges of 2 pieces
; PLAN-WRAP: range 0 [{{.*}}): piece 0;
; PLAN-WRAP-NEXT: range 1 [{{.*}}): piece 1;
; PLAN-WRAP-NEXT: range 2 [{{.*}}, 64): piece 0;
; PLAN-WRAP-NEXT: copies: {0} {1} {2}

; MODEL: ranges of x:
; MODEL-NEXT: [0, {{.*}}): piece 2
; MODEL-NEXT: accesses: cons cons cons
; MODEL-NEXT: branch kernel.body: divergent
; MODEL-NEXT: [{{.*}}): piece 0
; MODEL-NEXT: accesses: cons cons cons
; MODEL-NEXT: branch kernel.body: always to then
; MODEL-NEXT: [{{.*}}): piece 2
; MODEL-NEXT: accesses: cons cons cons
; MODEL-NEXT: branch kernel.body: divergent
; MODEL-NEXT: [{{.*}}, 64): piece 1
; MODEL-NEXT: accesses: uni uni uni
; MODEL-NEXT: branch kernel.body: always to end

; CHECK-LABEL: define void @__iss_sub_smooth_0(
; CHECK: br i1 %{{[0-9]+}}, label %region0.split, label %region0.written
; CHECK: br i1 %{{[0-9]+}}, label %wi.range1.whole, label %region0.ranges
; CHECK: region0.written:
; CHECK-NEXT: br label %region0.join
; CHECK: region0.join:
; CHECK-NEXT: %wi.end0 = phi i64 [ %{{[0-9]+}}, %region0.ranges ], [ 0, %wi.range1.whole ], [ 64, %region0.written ]
; Ranges 0 and 2 first, in one loop.
; CHECK: wi.ranges:
; CHECK-NEXT: %wi.range.index = phi i32 [ 0, %wi.body{{[0-9]*}} ], [ %wi.range.next, %wi.ranges.latch ]
; CHECK-NEXT: %[[FIRST:[0-9]+]] = icmp eq i32 %wi.range.index, 0
; CHECK-NEXT: %[[BEGIN:[0-9]+]] = select i1 %[[FIRST]], i64 0, i64 %wi.begin2
; CHECK-NEXT: %[[END:[0-9]+]] = select i1 %[[FIRST]], i64 %wi.end0, i64 %wi.end2
; CHECK-NEXT: %[[ANY:[0-9]+]] = icmp ult i64 %[[BEGIN]], %[[END]]
; CHECK-NEXT: br i1 %[[ANY]], label %wi.x.range.header, label %wi.ranges.latch
; CHECK: wi.ranges.latch:
; CHECK-NEXT: %wi.range.next = add nuw nsw i32 %wi.range.index, 1
; CHECK-NEXT: %[[MORE:[0-9]+]] = icmp ult i32 %wi.range.next, 2
; CHECK-NEXT: br i1 %[[MORE]], label %wi.ranges, label %wi.body.end{{[0-9]*}}, !llvm.loop ![[KEEP:[0-9]+]]
; CHECK: wi.x.range.header:
; CHECK-NEXT: %local_id_x{{[0-9]*}} = phi i64 [ %[[BEGIN]], %wi.ranges ]
; Their copy keeps the guard.
; CHECK: %[[C:c[0-9]*]] = and i1
; CHECK-NEXT: br i1 %[[C]], label %then
; Then range 1 (the guard folded) and range 3 (nothing to do).
; CHECK: wi.x.tiles.header:
; CHECK: %c{{[0-9]+}} = and i1
; CHECK-NEXT: br label %then
; CHECK: %c{{[0-9]+}} = and i1
; CHECK-NEXT: br label %wi.x.body.end
; CHECK-NOT: %c{{[0-9]+}} = and i1
; CHECK-NOT: region0.plain
; CHECK: ![[KEEP]] = distinct !{![[KEEP]], ![[NOUNROLL:[0-9]+]]}
; CHECK: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}

; WRAP-LABEL: define void @__iss_sub_wrap_0(
; WRAP-NOT: wi.ranges
; The cut tile's copy runs the groups whose assumptions fail.
; WRAP: region0.written:
; WRAP-NEXT: br label %region0.join
; Below n: a[O_x + x].
; WRAP: wi.x.tiles.header:
; WRAP: %[[A0:[0-9]+]] = add i64 %{{[0-9]+}}, %{{[0-9]+}}
; WRAP-NEXT: %v.addr = getelementptr inbounds i8, ptr %a.val, i64 %[[A0]]
; The tile n cuts: scalar, its own copy.
; WRAP: wi.x.range.header:
; Above n: a[O_x + x - n].
; WRAP: wi.x.tiles.header{{[0-9]+}}:
; WRAP: %[[N4:[0-9]+]] = mul i64 %{{[0-9]+}}, 4
; WRAP-NEXT: %[[A2:[0-9]+]] = sub i64 %{{[0-9]+}}, %[[N4]]
; WRAP-NEXT: %v.addr{{[0-9]+}} = getelementptr inbounds i8, ptr %a.val, i64 %[[A2]]
; WRAP-NOT: wi.ranges
; WRAP-NOT: region0.plain
