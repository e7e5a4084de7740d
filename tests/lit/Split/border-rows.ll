; iss-split in `split` mode on a 2D border test (PolyBench's 2DCONV
; shape: rows 0 and m - 1 skipped, x guarded by n), local size 16x4,
; 8 lanes. Each range runs as its own nest of rows. Two things keep the
; split from costing a work group more than the vector code it replaces:
;  - a group that lies in one range (here range 0: all four rows inside,
;    both tiles below n) is tested first and runs that range's own copy
;    with constant bounds, no bound computed, as its rows hold two tiles
;    at most; with 32x4 groups (four tiles a row) it joins the others
;    instead, with range 0's bounds [0, 32) in every row and the other
;    ranges empty, and has no copy of its own (JOIN);
;  - other groups compute the bounds once, at row 0, where every row is
;    cut alike (the model's "bounds the same in every row"); only the
;    groups that hold a border row compute them per row (`wi.bounds`),
;    and a range empty in every row is skipped as a whole.
; A group whose assumptions fail runs the unsplit loop, a cold function,
; where whole groups have copies of their own (16x4); with 32x4 groups it
; joins the ranges with the bounds of the copy that is the region as
; written (JOIN).
; The model prints both parameter sets.
;
; __kernel void rows(__global float *B, __global const float *A, int n,
;                    int m) {
;   int x = get_global_id(0), y = get_global_id(1);
;   if (y > 0 && y < m - 1 && x < n)
;     B[y * n + x] = A[(y - 1) * n + x] + A[(y + 1) * n + x];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=rows -iss-local-size=16,4,1 -iss-vector-width=8 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=MODEL
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=rows -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=rows -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=rows -iss-local-size=32,4,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=rows -iss-local-size=32,4,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s --check-prefix=JOIN

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_local_size_x = external global i64
@_local_size_y = external global i64
@_group_id_x = external global i64
@_group_id_y = external global i64
@_global_offset_x = external global i64
@_global_offset_y = external global i64

define spir_kernel void @rows(ptr %B, ptr %A, i32 %n, i32 %m) {
entry:
  %offx = load i64, ptr @_global_offset_x
  %gidx = load i64, ptr @_group_id_x
  %lsx = load i64, ptr @_local_size_x
  %basex = mul i64 %lsx, %gidx
  %gx0 = add i64 %offx, %basex
  %lidx = load i64, ptr @_local_id_x
  %gx = add i64 %gx0, %lidx
  %x = trunc i64 %gx to i32
  %offy = load i64, ptr @_global_offset_y
  %gidy = load i64, ptr @_group_id_y
  %lsy = load i64, ptr @_local_size_y
  %basey = mul i64 %lsy, %gidy
  %gy0 = add i64 %offy, %basey
  %lidy = load i64, ptr @_local_id_y
  %gy = add i64 %gy0, %lidy
  %y = trunc i64 %gy to i32
  %top = icmp sgt i32 %y, 0
  %m1 = add nsw i32 %m, -1
  %bottom = icmp slt i32 %y, %m1
  %right = icmp slt i32 %x, %n
  %c0 = and i1 %top, %bottom
  %c = and i1 %c0, %right
  br i1 %c, label %then, label %end

then:
  %ym = add nsw i32 %y, -1
  %yp = add nsw i32 %y, 1
  %rm = mul nsw i32 %ym, %n
  %rp = mul nsw i32 %yp, %n
  %r = mul nsw i32 %y, %n
  %im = add nsw i32 %rm, %x
  %ip = add nsw i32 %rp, %x
  %i = add nsw i32 %r, %x
  %im64 = sext i32 %im to i64
  %ip64 = sext i32 %ip to i64
  %i64 = sext i32 %i to i64
  %pa = getelementptr inbounds float, ptr %A, i64 %im64
  %pb = getelementptr inbounds float, ptr %A, i64 %ip64
  %va = load float, ptr %pa
  %vb = load float, ptr %pb
  %s = fadd float %va, %vb
  %po = getelementptr inbounds float, ptr %B, i64 %i64
  store float %s, ptr %po
  br label %end

end:
  ret void
}

; MODEL-LABEL: region entry.barrier, dimension x, width 8:
; MODEL: ranges of x:
; MODEL: range 0 is the whole work group where: [O_x, O_y, n, m] -> {  : O_y > 0 and n >= 16 + O_x and m >= 5 + O_y }
; MODEL: range 2 is the whole work group where: {  : false }
; MODEL: range 3 is the whole work group where: [O_x, n] -> {  : n <= O_x }
; MODEL: bounds the same in every row where: [O_x, O_y, n, m, G_y] -> {  : (O_y > 0 and n > O_x and m >= 5 + O_y) or n <= O_x or (n >= 8 + O_x and m <= 1 + O_y) or (O_y > 0 and O_x < n <= 7 + O_x and m <= 1 + O_y) or (O_y = 0 and G_y = 0 and O_x < n <= 7 + O_x and m <= 2) or (O_y = 0 and m = 2 and G_y = 0 and n >= 8 + O_x) }
; Along y (4 lanes, no tile of 8): one range, [0, 4), the same everywhere.
; MODEL-LABEL: region entry.barrier, dimension y, width 8:
; MODEL: ranges of y:
; MODEL-NEXT: [0, 4): piece 0
; MODEL: bounds the same in every row where: {  :  }

; CHECK-LABEL: define void @__iss_sub_rows_0(
; The whole group first: O_y >= 1, m >= O_y + 5, n >= O_x + 16.
; CHECK: region0.split:
; CHECK: %[[TOP:[0-9]+]] = icmp sge i64 %O_y{{[0-9]+}}, 1
; CHECK: %[[BOTTOM:[0-9]+]] = icmp sge i64 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-NEXT: %[[ROWS:[0-9]+]] = and i1 %[[TOP]], %[[BOTTOM]]
; CHECK: %[[RIGHT:[0-9]+]] = icmp sge i64 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-NEXT: %[[WHOLE:[0-9]+]] = and i1 %[[ROWS]], %[[RIGHT]]
; CHECK-NEXT: br i1 %[[WHOLE]], label %wi.range0.whole, label %region0.ranges
; The other groups: whether every row is cut alike, and the bounds at
; row 0; range 0's nest is skipped where it is empty in every row.
; CHECK: region0.ranges:
; CHECK: %[[EMPTY0:[0-9]+]] = icmp uge i64 0, %[[END0:[0-9]+]]
; CHECK-NEXT: %[[SKIP0:[0-9]+]] = and i1 %[[SAME:[0-9]+]], %[[EMPTY0]]
; CHECK-NEXT: br i1 %[[SKIP0]], label %wi.range1, label %wi.range0.rows
; CHECK: wi.range1:
; CHECK-NEXT: %[[EMPTY1:[0-9]+]] = icmp uge i64 %[[END0]], %{{[0-9]+}}
; CHECK-NEXT: and i1 %[[SAME]], %[[EMPTY1]]
; Range 0's rows: the bounds per row only where the rows differ.
; CHECK: wi.range0.rows:
; CHECK: wi.y.header{{[0-9]+}}:
; CHECK: wi.body{{[0-9]+}}:
; CHECK-NEXT: br i1 %[[SAME]], label %wi.bounds.done, label %wi.bounds
; CHECK: wi.bounds.done:
; CHECK-NEXT: %wi.bound = phi i64 [ %[[END0]], %wi.body{{[0-9]+}} ], [ %{{[0-9]+}}, %wi.bounds ]
; CHECK-NEXT: %wi.tiles.end = udiv exact i64 %wi.bound, 8
; The whole group's copy: 4 rows of 2 tiles, its guard folded.
; CHECK: wi.y.header{{[0-9]+}}: ; preds = %wi.y.latch{{[0-9]+}}, %wi.range0.whole
; CHECK: %wi.tile.next{{[0-9]+}} = add nuw nsw i64 %wi.tile{{[0-9]+}}, 1
; CHECK-NEXT: %[[MORE:[0-9]+]] = icmp ult i64 %wi.tile.next{{[0-9]+}}, 2
; CHECK: br label %then
; CHECK: define internal void @__iss_sub_rows_0.region0.plain(

; JOIN-LABEL: define void @__iss_sub_rows_0(
; A group where the model's assumptions fail (n or m near the int range's
; end) runs range 2's copy, the region as written (the tile that n cuts:
; a scalar loop, its guard kept), over all its work-items: it joins the
; ranges with range 2's bounds [0, 32), and there is no unsplit copy.
; JOIN: br i1 %{{[0-9]+}}, label %region0.split, label %region0.written
; JOIN: br i1 %{{[0-9]+}}, label %wi.range0.whole, label %region0.ranges
; JOIN: region0.written:
; JOIN-NEXT: br label %region0.join
; JOIN: wi.range0.whole:
; JOIN-NEXT: br label %region0.join
; JOIN: region0.ranges:
; JOIN: br label %region0.join
; JOIN: region0.join:
; JOIN-NEXT: %wi.end0 = phi i64 [ %[[END0:[0-9]+]], %region0.ranges ], [ 32, %wi.range0.whole ], [ 0, %region0.written ]
; JOIN-NEXT: %wi.begin1 = phi i64 [ %[[END0]], %region0.ranges ], [ 0, %wi.range0.whole ], [ 0, %region0.written ]
; JOIN-NEXT: %wi.end1 = phi i64 [ %{{[0-9]+}}, %region0.ranges ], [ 0, %wi.range0.whole ], [ 0, %region0.written ]
; JOIN-NEXT: %wi.begin2 = phi i64 [ %{{[0-9]+}}, %region0.ranges ], [ 0, %wi.range0.whole ], [ 0, %region0.written ]
; JOIN-NEXT: %wi.end2 = phi i64 [ %{{[0-9]+}}, %region0.ranges ], [ 0, %wi.range0.whole ], [ 32, %region0.written ]
; JOIN: %wi.end3 = phi i64 [ 32, %region0.ranges ], [ 0, %wi.range0.whole ], [ 0, %region0.written ]
; JOIN-NEXT: %wi.same = phi i1 [ %{{[0-9]+}}, %region0.ranges ], [ true, %wi.range0.whole ], [ true, %region0.written ]
; JOIN-NEXT: %[[EMPTY0:[0-9]+]] = icmp uge i64 0, %wi.end0
; JOIN-NEXT: %[[SKIP0:[0-9]+]] = and i1 %wi.same, %[[EMPTY0]]
; JOIN-NEXT: br i1 %[[SKIP0]], label %wi.range1, label %wi.range0.rows
; JOIN: wi.range1:
; JOIN-NEXT: %[[EMPTY1:[0-9]+]] = icmp uge i64 %wi.begin1, %wi.end1
; JOIN-NEXT: and i1 %wi.same, %[[EMPTY1]]
; JOIN: wi.range0.rows:
; JOIN: wi.body{{[0-9]*}}:
; JOIN-NEXT: br i1 %wi.same, label %wi.bounds.done, label %wi.bounds
; JOIN: wi.bounds.done:
; JOIN-NEXT: %wi.bound = phi i64 [ %wi.end0, %wi.body{{[0-9]*}} ], [ %{{[0-9]+}}, %wi.bounds ]
; JOIN-NOT: wi.range0.whole
; JOIN-NOT: region0.plain
