; iss-split in `split` mode: ranges of a region with kernel loops share
; a copy too (SplitPlan::copyClasses), where it keeps every loop that runs
; in lock-step on each of them in lock-step on them all.
;
; `apron` is the AMD SDK box filter's shape: work-items within k of either
; end write zero and return, the others sum a window of 2k + 1. Local size
; 64, 8 lanes: five ranges, the whole tiles of the left apron, the tile
; that k cuts, the whole tiles between, the tile that n - k cuts and the
; whole tiles of the right apron. The aprons fold the guard to the zero
; store (the window's loop is not reached), the cut tiles fold nothing
; and run scalar: one copy serves each pair, in a loop over the class's
; ranges, and the centre runs its own with the loop over lanes inside the
; window's loop. Three copies of the body in all, where there were five.
; The aprons' copy cuts the window's loop off: it runs its tiles as a
; plain loop of w lanes, not in lock-step (which would make it a tile
; function of its own, for nothing).
;
; `uneven` sums a[i .. i + m - 1] in the apron, m = 4 on the left and 8 on
; the right: its loop runs in lock-step on each apron, not on both, so
; the aprons keep a copy each, one testing its counter against 3 and the
; other against 7. The cut tiles still share theirs.
;
; __kernel void apron(__global float *b, __global const float *a, int n,
;                     int k) {
;   int i = get_global_id(0);
;   if (i < k || i >= n - k) { b[i] = 0; return; }
;   float s = 0;
;   for (int j = -k; j <= k; ++j)
;     s += a[i + j];
;   b[i] = s;
; }
; __kernel void uneven(...) {  // as apron, with, for the apron:
;   int m = i < k ? 4 : 8;
;   float s = 0;
;   for (int j = 0; j < m; ++j)
;     s += a[i + j];
;   b[i] = s; return;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=apron -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=apron -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=uneven -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=uneven -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s --check-prefix=UNEVEN

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @apron(ptr %b, ptr %a, i32 %n, i32 %k) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  %i.64 = sext i32 %i to i64
  %pb = getelementptr inbounds float, ptr %b, i64 %i.64
  %left = icmp slt i32 %i, %k
  br i1 %left, label %zero, label %right

right:
  %nk = sub nsw i32 %n, %k
  %past = icmp sge i32 %i, %nk
  br i1 %past, label %zero, label %for.pre

zero:
  store float 0.0, ptr %pb
  br label %end

for.pre:
  %mk = sub nsw i32 0, %k
  br label %for.cond

for.cond:
  %s = phi float [ 0.0, %for.pre ], [ %s.next, %for.body ]
  %j = phi i32 [ %mk, %for.pre ], [ %j.next, %for.body ]
  %c = icmp sle i32 %j, %k
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
  store float %s, ptr %pb
  br label %end

end:
  ret void
}

define spir_kernel void @uneven(ptr %b, ptr %a, i32 %n, i32 %k) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  %i.64 = sext i32 %i to i64
  %pb = getelementptr inbounds float, ptr %b, i64 %i.64
  %left = icmp slt i32 %i, %k
  br i1 %left, label %zero, label %right

right:
  %nk = sub nsw i32 %n, %k
  %past = icmp sge i32 %i, %nk
  br i1 %past, label %zero, label %for.pre

zero:
  %m = select i1 %left, i32 4, i32 8
  br label %z.cond

z.cond:
  %zs = phi float [ 0.0, %zero ], [ %zs.next, %z.body ]
  %zj = phi i32 [ 0, %zero ], [ %zj.next, %z.body ]
  %zc = icmp slt i32 %zj, %m
  br i1 %zc, label %z.body, label %z.end

z.body:
  %zij = add nsw i32 %i, %zj
  %zij.64 = sext i32 %zij to i64
  %zp = getelementptr inbounds float, ptr %a, i64 %zij.64
  %zv = load float, ptr %zp
  %zs.next = fadd float %zs, %zv
  %zj.next = add nsw i32 %zj, 1
  br label %z.cond

z.end:
  store float %zs, ptr %pb
  br label %end

for.pre:
  %mk = sub nsw i32 0, %k
  br label %for.cond

for.cond:
  %s = phi float [ 0.0, %for.pre ], [ %s.next, %for.body ]
  %j = phi i32 [ %mk, %for.pre ], [ %j.next, %for.body ]
  %c = icmp sle i32 %j, %k
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
  store float %s, ptr %pb
  br label %end

end:
  ret void
}


; The aprons (ranges 0 and 4): one loop over the two, around whole tiles
; whose lanes store zero, in a plain loop of w lanes: the window's loop is
; cut off, nothing runs in lock-step.
; CHECK-LABEL: define void @__iss_sub_apron_0(
; CHECK: wi.ranges:
; CHECK: wi.ranges.latch:
; CHECK-NEXT: %wi.range.next = add nuw nsw i32 %wi.range.index, 1
; CHECK-NEXT: %[[MORE:[0-9]+]] = icmp ult i32 %wi.range.next, 2
; CHECK-NOT: wi.lanes
; CHECK: wi.x.tiles.header:
; CHECK-NOT: wi.lanes
; CHECK: wi.x.tile.header:
; CHECK-NOT: wi.lanes
; CHECK: store float 0.000000e+00
; The cut tiles (ranges 1 and 3): another loop over two, scalar, the
; guard kept.
; CHECK: wi.ranges{{[0-9]+}}:
; CHECK: %[[MORE2:[0-9]+]] = icmp ult i32 %wi.range.next{{[0-9]+}}, 2
; CHECK: wi.x.range.header:
; CHECK: br i1 %or.cond{{[0-9]*}}, label %zero{{[0-9]*}}, label %for.pre
; CHECK: store float 0.000000e+00
; The centre: its own copy, the lanes inside the window's loop.
; CHECK: wi.x.tiles.header{{[0-9]+}}:
; CHECK: wi.lanes:
; CHECK-NOT: store float 0.000000e+00
; CHECK-NOT: wi.ranges
; CHECK-LABEL: define i32 @__iss_select_apron(

; UNEVEN-LABEL: define void @__iss_sub_uneven_0(
; The left apron, in lock-step four times, not in a class.
; UNEVEN-NOT: wi.ranges
; UNEVEN: wi.lanes:
; UNEVEN: %[[L:[0-9]+]] = icmp sle i64 %iss.iter{{[0-9]*}}.reload, 3
; The cut tiles, sharing a copy.
; UNEVEN: wi.ranges:
; UNEVEN: icmp ult i32 %wi.range.next, 2
; UNEVEN: wi.x.range.header:
; The centre, then the right apron, eight times.
; UNEVEN: wi.lanes{{[0-9]+}}:
; UNEVEN: wi.lanes{{[0-9]+}}:
; UNEVEN: %[[R:[0-9]+]] = icmp sle i64 %iss.iter{{[0-9]*}}.reload, 7
; UNEVEN-NOT: wi.ranges
; UNEVEN-LABEL: define i32 @__iss_select_uneven(
