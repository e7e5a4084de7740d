; iss-split with -iss-stats (POCL_ISS_STATS=1, the paper's Table 3): a
; box filter with clamped borders is split in three ranges of whole tiles,
; and the group's work-items run unsplit where the model's assumption on
; the offsets fails (the `.plain` fallback). Each range adds its
; End - Begin to the group's sum of its own counter as it is entered, once
; per outer ids and outside the loops over tiles and lanes; the fallback
; adds the group's 64; the group adds its sums to @__iss_pieces_box as it
; ends. `!iss.pieces` describes each counter: kernel, counter, region,
; piece, whole tiles, what the plan knows of the range, horizontal. The
; centre's mask loop runs in lock-step (loops 1 of 1 uniform) and its lanes
; go inside it (horizontal). Negative: without -iss-stats there are no
; counters; a region nothing splits (an index loaded from memory) has one
; counter, "unsplit", of the group's work-items.
;
; __kernel void box(__global float *out, __global const float *in, int n,
;                   int r) {
;   int x = get_global_id(0);
;   int lo = max(0, x - r), hi = min(n - 1, x + r);
;   float s = 0;
;   for (int i = lo; i <= hi; ++i)
;     s += in[i];
;   out[x] = s;
; }
; __kernel void gather(__global float *A, __global int *B) {
;   A[B[get_local_id(0)]] = 1.0f;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-kernel=box -iss-stats -S %s | pocl-iss-opt -passes='iss-split' -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-kernel=box -iss-stats -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-kernel=box -S %s | pocl-iss-opt -passes='iss-split' -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-kernel=box -S | FileCheck %s --check-prefix=NONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-kernel=gather -iss-stats -S %s | pocl-iss-opt -passes='iss-split' -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-kernel=gather -iss-stats -S | FileCheck %s --check-prefix=UNSPLIT

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @box(ptr %out, ptr %in, i32 %n, i32 %r) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %x = trunc i64 %g to i32
  %xm = sub nsw i32 %x, %r
  %lo = call i32 @llvm.smax.i32(i32 %xm, i32 0)
  %n1 = sub nsw i32 %n, 1
  %xp = add nsw i32 %x, %r
  %hi = call i32 @llvm.smin.i32(i32 %xp, i32 %n1)
  br label %for.cond

for.cond:
  %s = phi float [ 0.0, %entry ], [ %s.next, %for.body ]
  %i = phi i32 [ %lo, %entry ], [ %i.next, %for.body ]
  %c = icmp sle i32 %i, %hi
  br i1 %c, label %for.body, label %for.end

for.body:
  %ii = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr %in, i64 %ii
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %i.next = add nsw i32 %i, 1
  br label %for.cond

for.end:
  %xi = sext i32 %x to i64
  %po = getelementptr inbounds float, ptr %out, i64 %xi
  store float %s, ptr %po
  ret void
}

define spir_kernel void @gather(ptr %A, ptr %B) {
entry:
  %lid = load i64, ptr @_local_id_x
  %pb = getelementptr inbounds i32, ptr %B, i64 %lid
  %b = load i32, ptr %pb
  %bi = sext i32 %b to i64
  %pa = getelementptr inbounds float, ptr %A, i64 %bi
  store float 1.0, ptr %pa
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

; CHECK: @__iss_pieces_box = global [4 x i64] zeroinitializer, align 64
; CHECK-LABEL: define void @__iss_sub_box_0(
; The work group's sums, from 0.
; CHECK: entry:
; CHECK-DAG: store i64 0, ptr %[[S3:iss.piece[0-9]*]]
; CHECK-DAG: store i64 0, ptr %[[S2:iss.piece[0-9]*]]
; CHECK-DAG: store i64 0, ptr %[[S1:iss.piece[0-9]*]]
; CHECK-DAG: store i64 0, ptr %[[S0:iss.piece]],
; The fallback: the group's 64 work-items, before its loop.
; CHECK: call void @__iss_sub_box_0.region0.plain(ptr %[[S0]],
; The first range [0, B1): B1 work-items, then its loop over tiles.
; CHECK: %[[TOP0:[0-9]+]] = call i64 @llvm.umax.i64(i64 %[[B1:[0-9]+]], i64 0)
; CHECK-NEXT: %[[N0:[0-9]+]] = sub i64 %[[TOP0]], 0
; CHECK-NEXT: %[[L0:iss.piece.sum[0-9]+]] = load i64, ptr %[[S1]]
; CHECK-NEXT: %[[A0:[0-9]+]] = add i64 %[[L0]], %[[N0]]
; CHECK-NEXT: store i64 %[[A0]], ptr %[[S1]]
; CHECK-NEXT: %wi.tiles.end = udiv exact i64 %[[B1]], 8
; The centre [B1, B2), its own nest after the first range's.
; CHECK: %[[TOP1:[0-9]+]] = call i64 @llvm.umax.i64(i64 %[[B2:[0-9]+]], i64 %[[B1]])
; CHECK-NEXT: %[[N1:[0-9]+]] = sub i64 %[[TOP1]], %[[B1]]
; CHECK-NEXT: %[[L1:iss.piece.sum[0-9]+]] = load i64, ptr %[[S2]]
; CHECK-NEXT: %[[A1:[0-9]+]] = add i64 %[[L1]], %[[N1]]
; CHECK-NEXT: store i64 %[[A1]], ptr %[[S2]]
; CHECK-NEXT: %wi.tiles.first = udiv exact i64 %[[B1]], 8
; The last range [B2, 64).
; CHECK: %[[TOP2:[0-9]+]] = call i64 @llvm.umax.i64(i64 64, i64 %[[B2]])
; CHECK-NEXT: %[[N2:[0-9]+]] = sub i64 %[[TOP2]], %[[B2]]
; CHECK-NEXT: %[[L2:iss.piece.sum[0-9]+]] = load i64, ptr %[[S3]]
; CHECK-NEXT: %[[A2:[0-9]+]] = add i64 %[[L2]], %[[N2]]
; CHECK-NEXT: store i64 %[[A2]], ptr %[[S3]]
; CHECK-NEXT: %wi.tiles.first{{[0-9]+}} = udiv exact i64 %[[B2]], 8
; A region with a kernel loop gets no test for a whole group (its loop
; costs more than the bounds): no copy of its own.
; CHECK-NOT: .whole
; The loops over tiles and lanes count nothing; the group adds its sums to
; the counters as it ends, with one atomic add each.
; CHECK-NOT: atomicrmw
; CHECK-NOT: iss.piece
; CHECK: wg.exit:
; CHECK-NEXT: %[[E0:[0-9]+]] = load i64, ptr %[[S0]]
; CHECK-NEXT: atomicrmw add ptr @__iss_pieces_box, i64 %[[E0]] monotonic
; CHECK-NEXT: %[[E1:[0-9]+]] = load i64, ptr %[[S1]]
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds ([4 x i64], ptr @__iss_pieces_box, i64 0, i64 1), i64 %[[E1]] monotonic
; CHECK-NEXT: %[[E2:[0-9]+]] = load i64, ptr %[[S2]]
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds ([4 x i64], ptr @__iss_pieces_box, i64 0, i64 2), i64 %[[E2]] monotonic
; CHECK-NEXT: %[[E3:[0-9]+]] = load i64, ptr %[[S3]]
; CHECK-NEXT: atomicrmw add ptr getelementptr inbounds ([4 x i64], ptr @__iss_pieces_box, i64 0, i64 3), i64 %[[E3]] monotonic
; CHECK-NEXT: ret void
; CHECK-LABEL: define i32 @__iss_select_box(
; The fallback, outlined as a cold function: the group's 64 work-items
; into its sum, before its loop.
; CHECK: define internal void @__iss_sub_box_0.region0.plain(ptr %[[P:[^,]*]],
; CHECK: region0.plain:
; CHECK-NEXT: %[[F:iss.piece.sum]] = load i64, ptr %[[P]]
; CHECK-NEXT: %[[F1:[0-9]+]] = add i64 %[[F]], 64
; CHECK-NEXT: store i64 %[[F1]], ptr %[[P]]
; CHECK-NEXT: br label %wi.x.header
; CHECK: !iss.pieces = !{![[P0:[0-9]+]], ![[P1:[0-9]+]], ![[P2:[0-9]+]], ![[P3:[0-9]+]]}
; CHECK: ![[P0]] = !{!"box", i32 0, i32 0, !"fallback", i32 0, !"", i1 false, i32 0}
; CHECK: ![[P1]] = !{!"box", i32 1, i32 0, !"full, remainder", i32 1, !"accesses 1 consecutive, 0 uniform, 1 divergent; branches 0 of 1 folded; loops 0 of 1 uniform", i1 false, i32 0}
; CHECK: ![[P2]] = !{!"box", i32 2, i32 0, !"full, consecutive, uniform control", i32 1, !"accesses 2 consecutive, 0 uniform, 0 divergent; branches 0 of 1 folded; loops 1 of 1 uniform", i1 true, i32 0}
; CHECK: ![[P3]] = !{!"box", i32 3, i32 0, !"full, consecutive, divergent control", i32 1, !"accesses 2 consecutive, 0 uniform, 0 divergent; branches 0 of 1 folded; loops 0 of 1 uniform", i1 false, i32 0}

; NONE-NOT: __iss_pieces
; NONE-LABEL: define void @__iss_sub_box_0(
; NONE-NOT: atomicrmw
; NONE-NOT: iss.pieces

; UNSPLIT: @__iss_pieces_gather = global [1 x i64] zeroinitializer
; UNSPLIT-LABEL: define void @__iss_sub_gather_0(
; UNSPLIT: region0:
; UNSPLIT-NEXT: %[[U0:iss.piece.sum]] = load i64, ptr %iss.piece
; UNSPLIT-NEXT: %[[U1:[0-9]+]] = add i64 %[[U0]], 64
; UNSPLIT-NEXT: store i64 %[[U1]], ptr %iss.piece
; UNSPLIT-NEXT: br label %wi.x.header
; UNSPLIT: wg.exit:
; UNSPLIT-NEXT: %[[UE:[0-9]+]] = load i64, ptr %iss.piece
; UNSPLIT-NEXT: atomicrmw add ptr @__iss_pieces_gather, i64 %[[UE]] monotonic
; UNSPLIT-NEXT: ret void
; UNSPLIT: !iss.pieces = !{![[U:[0-9]+]]}
; UNSPLIT: ![[U]] = !{!"gather", i32 0, i32 0, !"unsplit", i32 0, !"", i1 false, i32 0}
