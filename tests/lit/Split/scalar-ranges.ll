; iss-split in `split` mode: a split gains only where a range's copy
; can run its tiles as vector code, and only in a range that does
; something.
;
; - @tailpow (the shape of iss-bench's uniform-pow): a tail guard folds on
;   the tiles past n, which reach no load or store, and nowhere else (the
;   tile n cuts and those below it run a loop whose exit differs across
;   their lanes). Not split, no remark.
; - @clamped: a read clamped to n - 1 is consecutive on the tiles below
;   n - 1, but these run a loop whose trip count (gid & 7) differs on every
;   lane, which keeps the loop over a tile's lanes scalar around it
;   whatever the split mends. Not split; a remark says why.
; - @lid0 (a reduction's last step): `if (lid == 0)` folds on every tile
;   but the first, which reach no access. Not split, no remark.
; - @border: the same divergent loop runs only left of r (the guard
;   x < r), the rest copies in[x]: the tiles from r on fold the guard and
;   never run the loop, so they gain, and the region is split.
; - @rows: a tail guard over a loop of four iterations whose accesses are
;   all divergent (stride 4): its trip count is a constant, which the
;   unroller takes away, so the tiles below n may still be vector code.
;   Split.
;
; __kernel void tailpow(__global const float *x, __global float *y, int n) {
;   int g = get_global_id(0);
;   if (g >= n) return;
;   float s = 0;
;   for (int j = 0; j < (g & 7); ++j) s += x[g + j];
;   y[g] = s;
; }
; __kernel void clamped(__global const float *x, __global float *y, int n) {
;   int g = get_global_id(0);
;   float s = 0;
;   for (int j = 0; j < (g & 7); ++j) s += x[g + j];
;   y[g] = s + x[min(g + 1, n - 1)];
; }
; __kernel void lid0(__global float *out, __global const float *in) {
;   if (get_local_id(0) == 0) out[get_group_id(0)] = in[0];
; }
; __kernel void border(__global const float *in, __global float *out, int r) {
;   int g = get_global_id(0);
;   if (g < r) { float s = 0;
;     for (int j = 0; j < (g & 7); ++j) s += in[g + j];
;     out[g] = s; }
;   else out[g] = in[g];
; }
; __kernel void rows(__global const float *in, __global float *out, int n) {
;   int t = get_global_id(0);
;   if (t < n) for (int k = 0; k < 4; ++k) out[4 * t + k] = in[4 * t + k];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=tailpow -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=tailpow -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=TAIL
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=clamped -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=clamped -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=CLAMP
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=lid0 -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=lid0 -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=LID
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=border -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=border -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S | FileCheck %s --check-prefix=BORDER
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=rows -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=rows -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S | FileCheck %s --check-prefix=ROWS
;
; The planner's answers (print<iss-predicates>), the silent ones too.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=tailpow -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-TAIL
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=clamped -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-CLAMP
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=lid0 -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-LID
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=border -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-BORDER
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-predicates>)' -iss-kernel=rows -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PLAN-ROWS

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @tailpow(ptr %x, ptr %y, i32 %n) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g64 = add i64 %g0, %lid
  %g = trunc i64 %g64 to i32
  %past = icmp sge i32 %g, %n
  br i1 %past, label %end, label %pre

pre:
  %m = and i32 %g, 7
  br label %for.cond

for.cond:
  %j = phi i32 [ 0, %pre ], [ %j.next, %for.body ]
  %s = phi float [ 0.0, %pre ], [ %s.next, %for.body ]
  %more = icmp slt i32 %j, %m
  br i1 %more, label %for.body, label %for.end

for.body:
  %a = add nsw i32 %g, %j
  %ai = sext i32 %a to i64
  %p = getelementptr inbounds float, ptr %x, i64 %ai
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %j.next = add nsw i32 %j, 1
  br label %for.cond

for.end:
  %gi = sext i32 %g to i64
  %q = getelementptr inbounds float, ptr %y, i64 %gi
  store float %s, ptr %q
  br label %end

end:
  ret void
}

define spir_kernel void @clamped(ptr %x, ptr %y, i32 %n) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g64 = add i64 %g0, %lid
  %g = trunc i64 %g64 to i32
  %m = and i32 %g, 7
  br label %for.cond

for.cond:
  %j = phi i32 [ 0, %entry ], [ %j.next, %for.body ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %for.body ]
  %more = icmp slt i32 %j, %m
  br i1 %more, label %for.body, label %for.end

for.body:
  %a = add nsw i32 %g, %j
  %ai = sext i32 %a to i64
  %p = getelementptr inbounds float, ptr %x, i64 %ai
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %j.next = add nsw i32 %j, 1
  br label %for.cond

for.end:
  %g1 = add nsw i32 %g, 1
  %last = add nsw i32 %n, -1
  %c = call i32 @llvm.smin.i32(i32 %g1, i32 %last)
  %ci = sext i32 %c to i64
  %pc = getelementptr inbounds float, ptr %x, i64 %ci
  %w = load float, ptr %pc
  %sum = fadd float %s, %w
  %gi = sext i32 %g to i64
  %q = getelementptr inbounds float, ptr %y, i64 %gi
  store float %sum, ptr %q
  ret void
}

define spir_kernel void @lid0(ptr %out, ptr %in) {
entry:
  %gid = load i64, ptr @_group_id_x
  %lid = load i64, ptr @_local_id_x
  %first = icmp eq i64 %lid, 0
  br i1 %first, label %then, label %end

then:
  %v = load float, ptr %in
  %q = getelementptr inbounds float, ptr %out, i64 %gid
  store float %v, ptr %q
  br label %end

end:
  ret void
}

define spir_kernel void @border(ptr %in, ptr %out, i32 %r) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g64 = add i64 %g0, %lid
  %g = trunc i64 %g64 to i32
  %gi = sext i32 %g to i64
  %q = getelementptr inbounds float, ptr %out, i64 %gi
  %left = icmp slt i32 %g, %r
  br i1 %left, label %pre, label %copy

pre:
  %m = and i32 %g, 7
  br label %for.cond

for.cond:
  %j = phi i32 [ 0, %pre ], [ %j.next, %for.body ]
  %s = phi float [ 0.0, %pre ], [ %s.next, %for.body ]
  %more = icmp slt i32 %j, %m
  br i1 %more, label %for.body, label %for.end

for.body:
  %a = add nsw i32 %g, %j
  %ai = sext i32 %a to i64
  %p = getelementptr inbounds float, ptr %in, i64 %ai
  %v = load float, ptr %p
  %s.next = fadd float %s, %v
  %j.next = add nsw i32 %j, 1
  br label %for.cond

for.end:
  store float %s, ptr %q
  br label %end

copy:
  %pc = getelementptr inbounds float, ptr %in, i64 %gi
  %c = load float, ptr %pc
  store float %c, ptr %q
  br label %end

end:
  ret void
}

define spir_kernel void @rows(ptr %in, ptr %out, i32 %n) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g64 = add i64 %g0, %lid
  %t = trunc i64 %g64 to i32
  %in.range = icmp slt i32 %t, %n
  br i1 %in.range, label %for.cond, label %end

for.cond:
  %k = phi i32 [ 0, %entry ], [ %k.next, %for.body ]
  %more = icmp slt i32 %k, 4
  br i1 %more, label %for.body, label %end

for.body:
  %t4 = shl nsw i32 %t, 2
  %a = add nsw i32 %t4, %k
  %ai = sext i32 %a to i64
  %p = getelementptr inbounds float, ptr %in, i64 %ai
  %v = load float, ptr %p
  %q = getelementptr inbounds float, ptr %out, i64 %ai
  store float %v, ptr %q
  %k.next = add nsw i32 %k, 1
  br label %for.cond

end:
  ret void
}

; TAIL-NOT: remark
; TAIL-LABEL: define void @__iss_sub_tailpow_0(
; TAIL-NOT: wi.range
; TAIL: wi.x.header:
; TAIL-NOT: wi.range

; CLAMP: remark: {{.*}}region after entry.barrier not split: what it would fold or mend lies in ranges whose tiles stay scalar, the loop at for.cond kept per work-item there: its trip count may differ across the lanes
; CLAMP-LABEL: define void @__iss_sub_clamped_0(
; CLAMP-NOT: wi.range
; CLAMP: wi.x.header:
; CLAMP-NOT: wi.range

; LID-NOT: remark
; LID-LABEL: define void @__iss_sub_lid0_0(
; LID-NOT: wi.range
; LID: wi.x.header:
; LID-NOT: wi.range

; PLAN-TAIL-LABEL: iss-predicates of @tailpow
; PLAN-TAIL-NEXT: region entry.barrier: not split: no range's copy would fold a branch, mend an access or run a loop in lock-step

; PLAN-CLAMP-LABEL: iss-predicates of @clamped
; PLAN-CLAMP-NEXT: region entry.barrier: not split: what it would fold or mend lies in ranges whose tiles stay scalar, the loop at for.cond kept per work-item there: its trip count may differ across the lanes

; PLAN-LID-LABEL: iss-predicates of @lid0
; PLAN-LID-NEXT: region entry.barrier: not split: no range's copy would fold a branch, mend an access or run a loop in lock-step

; Left of r the loop, in tiles the guard may cut; from r on the guard and
; the loop's exit folded, in and out consecutive.
; PLAN-BORDER-LABEL: iss-predicates of @border
; PLAN-BORDER-NEXT: region entry.barrier: 2 ranges of 2 pieces
; PLAN-BORDER: range 0 [{{.*}}): piece 1; accesses 4 consecutive, 0 uniform, 0 divergent; branches 0 of 2 folded{{$}}
; PLAN-BORDER-NEXT: range 1 [{{.*}}, 64): piece 0; accesses 2 consecutive, 2 uniform, 0 divergent; branches 2 of 2 folded{{$}}

; The tiles below n run the loop of divergent accesses, the guard folded.
; PLAN-ROWS-LABEL: iss-predicates of @rows
; PLAN-ROWS-NEXT: region entry.barrier: 3 ranges of 3 pieces
; PLAN-ROWS: range 0 [{{.*}}): piece 0; accesses 0 consecutive, 0 uniform, 2 divergent; branches 1 of 2 folded{{$}}

; BORDER-LABEL: define void @__iss_sub_border_0(
; BORDER: wi.range1:
; BORDER: wi.x.tiles.header

; ROWS-LABEL: define void @__iss_sub_rows_0(
; ROWS: wi.range1:
; ROWS: wi.x.tiles.header

declare i32 @llvm.smin.i32(i32, i32)
