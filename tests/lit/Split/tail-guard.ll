; iss-split in `split` mode on a tail guard (a padded NDRange): the
; model's ranges cut the work-item loop into tiles below n, the tile that n
; cuts, and tiles above n, with bounds computed per work group from the
; group offset and n. The guard is folded in the first and the last copy
; (always taken, never taken) and stays in the middle one. The model
; assumes the int global id does not wrap, which a check per work group
; guards: where it fails, the group runs the middle copy, the region as
; written, over all its work-items (it joins the ranges with bounds [0, 64)
; for the tile n cuts, and there is no unsplit copy; stats.ll and
; border-rows.ll keep one, outlined as a cold function optimized for
; size). A group that lies below n, tested first,
; runs the first range alone, with no bound computed: it joins the others
; with bounds [0, 64) for that range and empty ones for the rest, and
; there is no copy of its own. Whole tiles run as a loop
; over tiles around a loop of exactly w work-items; the one tile that n
; cuts, where the guard diverges, as a scalar loop (masks would cost more
; to compile and no less to run).
;
; __kernel void saxpy(__global float *y, __global const float *x, float a,
;                     int n) {
;   int i = get_global_id(0);
;   if (i < n)
;     y[i] = a * x[i] + y[i];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; The `vec` mode and a limit of two pieces leave the loop unsplit; the
; limit says so in a remark.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s --check-prefix=VEC
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-split-pieces=2 -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=saxpy -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-split-pieces=2 -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=LIMIT

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

declare float @llvm.fmuladd.f32(float, float, float)

; CHECK-LABEL: define void @__iss_sub_saxpy_0(
; CHECK: iss.assume:
; CHECK: %O_x = add i64 %{{.*}}, %global_offset_x
; CHECK-NEXT: %[[HOLDS:.*]] = icmp sle i64 %O_x, 2147483584
; CHECK-NEXT: br label %region0
; CHECK: region0:
; CHECK-NEXT: br i1 %[[HOLDS]], label %region0.split, label %region0.written
; A group below n lies in the first range: tested first, before any bound
; is computed, it runs that range alone over all its tiles.
; CHECK: region0.split:
; CHECK: %[[END:.*]] = add i64 %O_x{{[0-9]+}}, 64
; CHECK-NEXT: %[[WHOLE:.*]] = icmp sge i64 %{{[0-9]+}}, %[[END]]
; CHECK-NEXT: br i1 %[[WHOLE]], label %wi.range0.whole, label %region0.ranges
; Where the assumption fails: the middle range's copy, over the group.
; CHECK: region0.written:
; CHECK-NEXT: br label %region0.join
; CHECK: wi.range0.whole:
; CHECK-NEXT: br label %region0.join
; Other groups compute the bounds once.
; CHECK: region0.ranges:
; CHECK-NOT: wi.tile
; CHECK: br label %region0.join
; CHECK: region0.join:
; CHECK-NEXT: %wi.end0 = phi i64 [ %[[END0:[0-9]+]], %region0.ranges ], [ 64, %wi.range0.whole ], [ 0, %region0.written ]
; CHECK-NEXT: %wi.begin1 = phi i64 [ %[[END0]], %region0.ranges ], [ 0, %wi.range0.whole ], [ 0, %region0.written ]
; CHECK-NEXT: %wi.end1 = phi i64 [ %[[END1:[0-9]+]], %region0.ranges ], [ 0, %wi.range0.whole ], [ 64, %region0.written ]
; CHECK-NEXT: %wi.begin2 = phi i64 [ %[[END1]], %region0.ranges ], [ 0, %wi.range0.whole ], [ 0, %region0.written ]
; CHECK-NEXT: %wi.end2 = phi i64 [ 64, %region0.ranges ], [ 0, %wi.range0.whole ], [ 0, %region0.written ]
; CHECK-NEXT: br label %wi.body{{[0-9]*}}
; The ranges: whole tiles below n first.
; CHECK: udiv exact i64 %{{.*}}, 8
; CHECK: %wi.tile{{[0-9]*}} = phi i64
; CHECK: %wi.tile.base{{[0-9]*}} = mul nuw nsw i64 %wi.tile{{[0-9]*}}, 8
; CHECK: %wi.lane{{[0-9]*}} = phi i64 [ 0,
; CHECK: icmp ult i64 %wi.lane.next{{[0-9]*}}, 8
; Below n: the guard folded to the store.
; CHECK: %c{{[0-9]*}} = icmp slt i32 %i{{[0-9]*}}, %n.val
; CHECK-NEXT: br label %then
; The tile that n cuts: a scalar loop from the range's bound, the guard
; stays.
; CHECK: %local_id_x{{[0-9]*}} = phi i64 [ %wi.begin1, %wi.body{{[0-9]+}} ]
; CHECK: %c[[C2:[0-9]+]] = icmp slt i32 %i{{[0-9]+}}, %n.val
; CHECK-NEXT: br i1 %c[[C2]], label %then
; Above n: nothing to do.
; CHECK: %c{{[0-9]+}} = icmp slt i32 %i{{[0-9]+}}, %n.val
; CHECK-NEXT: br label %wi.x.body.end
; Three copies of the body in all, none for the whole group, none for the
; groups where the assumption fails.
; CHECK-NOT: icmp slt i32 %i{{[0-9]+}}, %n.val
; CHECK-NOT: region0.plain

; VEC-LABEL: define void @__iss_sub_saxpy_0(
; VEC-NOT: wi.tile
; VEC-NOT: .split
; VEC: ret void

; LIMIT: remark: {{.*}}region after entry.barrier not split: 3 ranges, more than 2 (POCL_ISS_MAX_PIECES)
; LIMIT-LABEL: define void @__iss_sub_saxpy_0(
; LIMIT-NOT: wi.tile
; LIMIT: ret void
