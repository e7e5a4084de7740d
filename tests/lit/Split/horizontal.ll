; iss-split in `split` mode, horizontal parallelization inside a range:
; a box filter whose window [max(0, x - r), min(n - 1, x + r)] is clamped
; at the borders. In the range of whole tiles where no clamp applies, the
; loop runs 2r + 1 times on every work-item: the split rewrites its exit
; as a test of the iteration counter (k <= 2r), drops the induction
; variable (the load's address is the model's, in + 4 (O_x - r + x + k)),
; and the tile's blocks go through the front half as a kernel of w
; work-items, so that the loop over the lanes runs inside the kernel loop.
; The loop's test is a region of its own, the body a full loop over the
; eight lanes. Negative: a loop whose trip count varies on every tile
; (x % 5 + 1 times) keeps its lanes outside; `vec` splits nothing.
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
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=box -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=box -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops' -iss-kernel=box -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s --check-prefix=NONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=triangle -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=triangle -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s --check-prefix=NONE
; Out of isl quota for the lock-step test, the loop would keep the
; work-item loop outside, and the range's tiles would run scalar around
; it: what the split mends there gains nothing, and the region is not
; split (a remark says why).
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=box -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-lockstep-max-ops=1 -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=box -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-lockstep-max-ops=1 -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=QUOTA

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

define spir_kernel void @triangle(ptr %out, ptr %in) {
entry:
  %lid = load i64, ptr @_local_id_x
  %x = trunc i64 %lid to i32
  %hi = srem i32 %x, 5
  br label %for.cond

for.cond:
  %s = phi float [ 0.0, %entry ], [ %s.next, %for.body ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.body ]
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

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

; CHECK-LABEL: define void @__iss_sub_box_0(
; The tiles of the centre: no loop over lanes around the kernel loop.
; CHECK: wi.x.tiles.header{{[0-9]+}}:
; CHECK: = mul nuw nsw i64 %wi.tile{{[0-9]+}}, 8
; CHECK-NEXT: br label %wi.lanes{{$}}
; The kernel loop's test, on the counter only, in a region of its own:
; every lane would decide alike, so it runs once, straight to the body's
; region or out (no loop over the other lanes).
; CHECK: for.cond{{[0-9]+}}.barrier.next:
; CHECK-NEXT: %[[R:[0-9]+]] = sext i32 %r.val to i64
; CHECK-NEXT: %[[TWOR:[0-9]+]] = mul i64 %[[R]], 2
; CHECK-NEXT: %[[K:iss.iter.reload[0-9]*]] = load i64, ptr %iss.iter.uniform
; CHECK-NEXT: %[[MORE:[0-9]+]] = icmp sge i64 %[[TWOR]], %[[K]]
; CHECK-NEXT: br i1 %[[MORE]], label %region{{[0-9]+}}, label %region{{[0-9]+}}{{$}}
; CHECK-NOT: .follow
; The body: a loop over the eight lanes inside the kernel loop, reading
; in[O_x - r + x + k] with no clamp and no induction variable.
; CHECK: for.body{{[0-9]+}}.next:
; CHECK: = add nuw nsw i64 %wi.tile.base{{[0-9]+}}, %local_id_x{{[0-9]+}}
; CHECK: %[[K2:iss.iter.reload[0-9]*]] = load i64, ptr %iss.iter.uniform
; CHECK-NEXT: = mul i64 %[[K2]], 4
; CHECK: %v.addr = getelementptr inbounds i8, ptr %in.val
; CHECK-NEXT: %v{{[0-9]+}} = load float, ptr %v.addr
; CHECK-NOT: smax
; CHECK: %iss.iter.next = add nuw nsw i64
; CHECK: wi.lanes.end:

; NONE-NOT: wi.lanes

; QUOTA: remark: {{.*}}region after entry.barrier not split: what it would fold or mend lies in ranges whose tiles stay scalar, the loop at for.cond kept per work-item there: isl ran out of quota deciding whether it runs in lock-step (-iss-lockstep-max-ops)
; QUOTA-LABEL: define void @__iss_sub_box_0(
; QUOTA-NOT: wi.range
; QUOTA-NOT: wi.tiles
; QUOTA-NOT: wi.lanes
