; A clamped window along x (a 1D box filter: k from max(i - r, 0) to
; min(i + r, n - 1)) behind a tail guard, in groups of 64 at 16 lanes. In
; the centre the window loop runs in lock-step; deciding so asks, per exit
; branch, for two work-items of a range's tiles that take different
; successors (SplittingPredicates::uniformAcross). With the pairs'
; relation bounded by the range's domain on both sides that relation had
; the domain's pieces squared, and the question ran out of its isl quota:
; the loop kept the work-item loop outside (a remark said so). Decided
; within the quota, the centre runs horizontally.
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=window -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=window -iss-local-size=64,1,1 -iss-vector-width=16 -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define i32 @gid() {
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %i = trunc i64 %g to i32
  ret i32 %i
}

define spir_kernel void @window(ptr %in, ptr %out, i32 %n, i32 %r) {
entry:
  %i = call i32 @gid()
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %end

then:
  %lo0 = sub nsw i32 %i, %r
  %lo = call i32 @llvm.smax.i32(i32 %lo0, i32 0)
  %n1 = sub nsw i32 %n, 1
  %hi0 = add nsw i32 %i, %r
  %hi = call i32 @llvm.smin.i32(i32 %hi0, i32 %n1)
  br label %cond

cond:
  %k = phi i32 [ %lo, %then ], [ %k1, %body ]
  %s = phi double [ 0.0, %then ], [ %s1, %body ]
  %more = icmp sle i32 %k, %hi
  br i1 %more, label %body, label %done

body:
  %kk = sext i32 %k to i64
  %p = getelementptr inbounds double, ptr %in, i64 %kk
  %v = load double, ptr %p
  %s1 = fadd double %s, %v
  %k1 = add nsw i32 %k, 1
  br label %cond

done:
  %ii = sext i32 %i to i64
  %q = getelementptr inbounds double, ptr %out, i64 %ii
  store double %s, ptr %q
  br label %end

end:
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)

; CHECK-NOT: ran out of quota
; CHECK-LABEL: define void @__iss_sub_window_0(
; CHECK: wi.lanes:
; CHECK: ret void
