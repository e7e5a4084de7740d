; iss-split in `split` mode on Convolution2D (Figure 2, as in
; Model/convolution2d.ll), local size 32x8, 16 lanes: the partial edges.
; In the first group column the left border (x < vstep - O_x) cuts the
; first tile, which the remainder's vector copy ran whole; its other lanes
; are interior, where the interior's copy computes what the kernel does
; (its clamps resolve, its loops run 2 vstep + 1 times). The edge:
;  - the ranges beside the interior lose the edge tile (wi.end.cut,
;    wi.begin.cut: a tile earlier, a tile later, where there is an edge);
;  - per row, the interior's class copy runs the edge tiles (k = 0 left,
;    1 right, where there is an edge) on all 16 lanes, those outside [lo, hi) with lane lo's id
;    (local_id_x.edge) and their store skipped (wi.lane.write): one vector
;    iteration with masks, its lane loops inside the mask loops;
;  - the tiles' other lanes run the kernel as written, one scalar loop
;    outlined as a cold function;
;  - POCL_ISS_STATS counts the edge's work-items in the interior piece
;    (how 2: partial tiles with masks) and the others apart.
; Without rows (local size 64x1) an edge is one tile at each end of the
; launch, and -iss-partial-edges=false (POCL_ISS_PARTIAL_EDGES=0) turns
; them off: no edge there; nor without -iss-cheap-masks (AVX-512's masked
; stores), where the masks of an edge would cost more than they save.
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -iss-stats -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -iss-stats -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=scratch -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=scratch -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -S | FileCheck %s --check-prefix=SCRATCH
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -iss-partial-edges=false -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -iss-partial-edges=false -S | FileCheck %s --check-prefix=NONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -S | FileCheck %s --check-prefix=NONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=Convolution2D -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=Convolution2D -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -S | FileCheck %s --check-prefix=NONE
; The plan's ranges with edges (print<iss-predicates>): the interior's,
; only with rows, partial edges and cheap masks.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -iss-partial-edges=false -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-NONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=Convolution2D -iss-local-size=32,8,1 -iss-vector-width=16 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-NONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=Convolution2D -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -iss-cheap-masks -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-NONE

; CHECK-LABEL: define void @__iss_sub_Convolution2D_0(
; The neighbours of the interior, once per group.
; CHECK: %wi.end.cut = select i1 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %[[END:[0-9]+]]
; CHECK: %wi.begin.cut = select i1 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %[[BEGIN:[0-9]+]]
; The edges, once per group where the bounds are the same in every row.
; CHECK: region0.edges:
; CHECK: %wi.edge.begin = select i1
; CHECK: %wi.edge.end = select i1
; CHECK: br label %region0.edge.rows
; CHECK: region0.edge.rows:
; CHECK: wi.edge1.tiles.header:
; CHECK-NEXT: %[[T:wi.tile[0-9]*]] = phi i64 [ 0, %{{.*}} ], [ %[[TNEXT:wi.tile.next[0-9]*]], %wi.edge1.tiles.latch ]
; CHECK-NEXT: %[[L0:[0-9]+]] = icmp eq i64 %[[T]], 0
; CHECK-NEXT: %{{[0-9]+}} = select i1 %[[L0]], i64 %wi.edge.left,
; CHECK: %[[PRESENT:[0-9]+]] = select i1 %{{[0-9]+}}, i1
; CHECK-NEXT: br i1 %[[PRESENT]], label %wi.lanes{{[0-9]+}}, label %wi.edge1.tiles.latch
; CHECK: wi.edge1.tiles.latch:
; CHECK-NEXT: %[[TNEXT]] = add nuw nsw i64 %[[T]], 1
; CHECK-NEXT: %[[MORE:[0-9]+]] = icmp ult i64 %[[TNEXT]], 2
; CHECK-NEXT: br i1 %[[MORE]], label %wi.edge1.tiles.header, label %wi.edge1.done
; The lanes of the tile function, outside the edge on lane lo's id.
; CHECK: %wi.lane.active = and i1
; CHECK: %local_id_x.edge = select i1 %wi.lane.active
; CHECK: br i1 %wi.lane.active.re, label %wi.lane.write, label
; CHECK: wi.lane.write:
; CHECK-NEXT: store i32
; Its lane loops are vector loops whatever the cost model says.
; CHECK: wi.x.latch{{[0-9]+}}:
; CHECK: br i1 %{{.*}}, label %wi.x.header{{[0-9]+}}, label %{{.*}}, !llvm.loop ![[LANES:[0-9]+]]
; The other lanes, as written, cold.
; CHECK: call void @__iss_sub_Convolution2D_0.wi.edges.written(
; CHECK: define internal void @__iss_sub_Convolution2D_0.wi.edges.written({{.*}}) #[[COLD:[0-9]+]]
; CHECK: attributes #[[COLD]] = { cold minsize noinline nounwind optsize
; CHECK-DAG: ![[LANES]] = distinct !{![[LANES]], !{{[0-9]+}}, ![[UNROLL:[0-9]+]], ![[WIDTH:[0-9]+]]}
; CHECK-DAG: ![[UNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 16}
; CHECK-DAG: !{!"Convolution2D", i32 4, i32 0, !"full, consecutive, uniform control", i32 2, !"accesses 2 consecutive, 1 uniform, 0 divergent; branches 0 of 2 folded; loops 2 of 2 uniform", i1 true, i32 0}
; CHECK-DAG: !{!"Convolution2D", i32 5, i32 0, !"beside an edge, as written", i32 0, !"", i1 false, i32 0}

; The same kernel with a private scratch array that a memset and a memcpy
; from the mask fill: a lane outside the edge writes its own lane of it
; (what it reads back is what lane lo's copy holds), only the output's
; store is masked.
; SCRATCH-LABEL: define void @__iss_sub_scratch_0(
; SCRATCH: %wi.lane.active = and i1
; SCRATCH-NOT: wi.lane.write
; SCRATCH: call void @llvm.memset.p0.i64(
; SCRATCH-NOT: wi.lane.write
; SCRATCH: call void @llvm.memcpy.p0.p0.i64(
; SCRATCH: br i1 %wi.lane.active.re, label %wi.lane.write,
; SCRATCH: wi.lane.write:
; SCRATCH-NEXT: store i32 %withsc

; Range 1 is the interior, between the remainder on the left and the
; divergent border on the right.
; PLAN-LABEL: iss-predicates of @Convolution2D
; PLAN-NEXT: region entry.barrier: 3 ranges of 3 pieces
; PLAN: range 1 [{{.*}}): piece 0;
; PLAN: edges: {1}
; PLAN-NONE-LABEL: iss-predicates of @Convolution2D
; PLAN-NONE-NEXT: region entry.barrier: 3 ranges of 3 pieces
; PLAN-NONE: edges: {}{{$}}

; NONE-LABEL: define void @__iss_sub_Convolution2D_0(
; NONE-NOT: wi.edge
; NONE-NOT: .cut =
; NONE: ret void

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_local_size_x = external global i64
@_local_size_y = external global i64
@_group_id_x = external global i64
@_group_id_y = external global i64
@_global_offset_x = external global i64
@_global_offset_y = external global i64

define spir_kernel void @Convolution2D(ptr %output, ptr %input, ptr %mask, i32 %width, i32 %height, i32 %maskWidth, i32 %maskHeight) {
entry:
  %0 = load i64, ptr @_global_offset_x
  %1 = load i64, ptr @_group_id_x
  %lsx = load i64, ptr @_local_size_x
  %2 = mul i64 %lsx, %1
  %3 = add i64 %0, %2
  %4 = load i64, ptr @_local_id_x
  %5 = add i64 %3, %4
  %conv = trunc i64 %5 to i32
  %6 = load i64, ptr @_global_offset_y
  %7 = load i64, ptr @_group_id_y
  %lsy = load i64, ptr @_local_size_y
  %8 = mul i64 %lsy, %7
  %9 = add i64 %6, %8
  %10 = load i64, ptr @_local_id_y
  %11 = add i64 %9, %10
  %conv2 = trunc i64 %11 to i32
  %sub = sub nsw i32 %maskWidth, 1
  %div = sdiv i32 %sub, 2
  %sub3 = sub nsw i32 %maskHeight, 1
  %div4 = sdiv i32 %sub3, 2
  %sub5 = sub nsw i32 %conv, %div
  %cmp = icmp sgt i32 0, %sub5
  %cond = select i1 %cmp, i32 0, i32 %sub5
  %sub8 = sub nsw i32 %width, 1
  %add = add nsw i32 %conv, %div
  %cmp9 = icmp slt i32 %sub8, %add
  %cond16 = select i1 %cmp9, i32 %sub8, i32 %add
  %sub17 = sub nsw i32 %conv2, %div4
  %cmp18 = icmp sgt i32 0, %sub17
  %cond24 = select i1 %cmp18, i32 0, i32 %sub17
  %sub25 = sub nsw i32 %height, 1
  %add26 = add nsw i32 %conv2, %div4
  %cmp27 = icmp slt i32 %sub25, %add26
  %cond34 = select i1 %cmp27, i32 %sub25, i32 %add26
  br label %for.cond

for.cond:
  %sumFX.0 = phi float [ 0.000000e+00, %entry ], [ %sumFX.1, %for.inc53 ]
  %i.0 = phi i32 [ %cond, %entry ], [ %inc54, %for.inc53 ]
  %cmp35 = icmp sle i32 %i.0, %cond16
  br i1 %cmp35, label %for.cond37.preheader, label %for.end55

for.cond37.preheader:
  br label %for.cond37

for.cond37:
  %sumFX.1 = phi float [ %14, %for.body41 ], [ %sumFX.0, %for.cond37.preheader ]
  %j.0 = phi i32 [ %inc, %for.body41 ], [ %cond24, %for.cond37.preheader ]
  %cmp38 = icmp sle i32 %j.0, %cond34
  br i1 %cmp38, label %for.body41, label %for.inc53

for.body41:
  %sub43 = sub nsw i32 %j.0, %sub17
  %mul = mul nsw i32 %sub43, %maskWidth
  %sub45 = sub nsw i32 %i.0, %sub5
  %add46 = add nsw i32 %mul, %sub45
  %mul47 = mul nsw i32 %j.0, %width
  %add48 = add nsw i32 %mul47, %i.0
  %idxprom = sext i32 %add48 to i64
  %arrayidx = getelementptr inbounds i32, ptr %input, i64 %idxprom
  %12 = load i32, ptr %arrayidx, align 4
  %conv49 = sitofp i32 %12 to float
  %idxprom50 = sext i32 %add46 to i64
  %arrayidx51 = getelementptr inbounds float, ptr %mask, i64 %idxprom50
  %13 = load float, ptr %arrayidx51, align 4
  %14 = call float @llvm.fmuladd.f32(float %conv49, float %13, float %sumFX.1)
  %inc = add nsw i32 %j.0, 1
  br label %for.cond37

for.inc53:
  %inc54 = add nsw i32 %i.0, 1
  br label %for.cond

for.end55:
  %conv56 = fpext float %sumFX.0 to double
  %add57 = fadd double %conv56, 5.000000e-01
  %conv58 = fptosi double %add57 to i32
  %mul59 = mul nsw i32 %conv2, %width
  %add60 = add nsw i32 %mul59, %conv
  %idxprom61 = sext i32 %add60 to i64
  %arrayidx62 = getelementptr inbounds i32, ptr %output, i64 %idxprom61
  store i32 %conv58, ptr %arrayidx62, align 4
  ret void
}

define spir_kernel void @scratch(ptr %output, ptr %input, ptr %mask, i32 %width, i32 %height, i32 %maskWidth, i32 %maskHeight) {
entry:
  %scratch = alloca [4 x i32], align 4
  %0 = load i64, ptr @_global_offset_x
  %1 = load i64, ptr @_group_id_x
  %lsx = load i64, ptr @_local_size_x
  %2 = mul i64 %lsx, %1
  %3 = add i64 %0, %2
  %4 = load i64, ptr @_local_id_x
  %5 = add i64 %3, %4
  %conv = trunc i64 %5 to i32
  %6 = load i64, ptr @_global_offset_y
  %7 = load i64, ptr @_group_id_y
  %lsy = load i64, ptr @_local_size_y
  %8 = mul i64 %lsy, %7
  %9 = add i64 %6, %8
  %10 = load i64, ptr @_local_id_y
  %11 = add i64 %9, %10
  %conv2 = trunc i64 %11 to i32
  %sub = sub nsw i32 %maskWidth, 1
  %div = sdiv i32 %sub, 2
  %sub3 = sub nsw i32 %maskHeight, 1
  %div4 = sdiv i32 %sub3, 2
  %sub5 = sub nsw i32 %conv, %div
  %cmp = icmp sgt i32 0, %sub5
  %cond = select i1 %cmp, i32 0, i32 %sub5
  %sub8 = sub nsw i32 %width, 1
  %add = add nsw i32 %conv, %div
  %cmp9 = icmp slt i32 %sub8, %add
  %cond16 = select i1 %cmp9, i32 %sub8, i32 %add
  %sub17 = sub nsw i32 %conv2, %div4
  %cmp18 = icmp sgt i32 0, %sub17
  %cond24 = select i1 %cmp18, i32 0, i32 %sub17
  %sub25 = sub nsw i32 %height, 1
  %add26 = add nsw i32 %conv2, %div4
  %cmp27 = icmp slt i32 %sub25, %add26
  %cond34 = select i1 %cmp27, i32 %sub25, i32 %add26
  call void @llvm.memset.p0.i64(ptr %scratch, i8 0, i64 16, i1 false)
  call void @llvm.memcpy.p0.p0.i64(ptr %scratch, ptr %mask, i64 8, i1 false)
  br label %for.cond

for.cond:
  %sumFX.0 = phi float [ 0.000000e+00, %entry ], [ %sumFX.1, %for.inc53 ]
  %i.0 = phi i32 [ %cond, %entry ], [ %inc54, %for.inc53 ]
  %cmp35 = icmp sle i32 %i.0, %cond16
  br i1 %cmp35, label %for.cond37.preheader, label %for.end55

for.cond37.preheader:
  br label %for.cond37

for.cond37:
  %sumFX.1 = phi float [ %14, %for.body41 ], [ %sumFX.0, %for.cond37.preheader ]
  %j.0 = phi i32 [ %inc, %for.body41 ], [ %cond24, %for.cond37.preheader ]
  %cmp38 = icmp sle i32 %j.0, %cond34
  br i1 %cmp38, label %for.body41, label %for.inc53

for.body41:
  %sub43 = sub nsw i32 %j.0, %sub17
  %mul = mul nsw i32 %sub43, %maskWidth
  %sub45 = sub nsw i32 %i.0, %sub5
  %add46 = add nsw i32 %mul, %sub45
  %mul47 = mul nsw i32 %j.0, %width
  %add48 = add nsw i32 %mul47, %i.0
  %idxprom = sext i32 %add48 to i64
  %arrayidx = getelementptr inbounds i32, ptr %input, i64 %idxprom
  %12 = load i32, ptr %arrayidx, align 4
  %conv49 = sitofp i32 %12 to float
  %idxprom50 = sext i32 %add46 to i64
  %arrayidx51 = getelementptr inbounds float, ptr %mask, i64 %idxprom50
  %13 = load float, ptr %arrayidx51, align 4
  %14 = call float @llvm.fmuladd.f32(float %conv49, float %13, float %sumFX.1)
  %inc = add nsw i32 %j.0, 1
  br label %for.cond37

for.inc53:
  %inc54 = add nsw i32 %i.0, 1
  br label %for.cond

for.end55:
  %conv56 = fpext float %sumFX.0 to double
  %add57 = fadd double %conv56, 5.000000e-01
  %conv58 = fptosi double %add57 to i32
  %mul59 = mul nsw i32 %conv2, %width
  %add60 = add nsw i32 %mul59, %conv
  %idxprom61 = sext i32 %add60 to i64
  %arrayidx62 = getelementptr inbounds i32, ptr %output, i64 %idxprom61
  %sc = load i32, ptr %scratch, align 4
  %withsc = add i32 %conv58, %sc
  store i32 %withsc, ptr %arrayidx62, align 4
  ret void
}

declare float @llvm.fmuladd.f32(float, float, float)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
