; Where masked loads and stores cost what plain ones do (AVX-512,
; -iss-cheap-masks), a straight-line region whose accesses are all
; consecutive gains nothing from a split that only folds a guard: the
; vectorizer if-converts the guarded code into masked accesses, and a split
; would add its ranges' bounds to every group. The region stays unsplit and
; a remark says why. A guard over a uniform load (a masked gather once
; if-converted) or an if-then-else (both sides run once if-converted) is
; still split, and without -iss-cheap-masks every one is. A clamp that
; the guard keeps from clamping (min(i, n) under i < n) is one expression
; in the model: alike. An offset chosen by a parameter (one expression per
; value of k, so not one as written) is consecutive on every tile: the
; predicates' classes leave it to the masks too.
;
; __kernel void tail(__global float *y, __global const float *x, int n) {
;   int i = get_global_id(0);
;   if (i < n)
;     y[i] = 2 * x[i];
; }
; __kernel void scale(__global float *y, __global const float *x,
;                     __global const float *s, int n, int k) {
;   int i = get_global_id(0);
;   if (i < n)
;     y[i] = s[k] * x[i];
; }
; __kernel void pick(__global float *y, __global const float *x,
;                    __global const float *z, int n) {
;   int i = get_global_id(0);
;   if (i < n) y[i] = x[i]; else y[i] = z[i];
; }
; __kernel void clamped(__global float *y, __global const float *x, int n) {
;   int i = get_global_id(0);
;   if (i < n)
;     y[i] = x[min(i, n)];
; }
; __kernel void shifted(__global float *y, __global const float *x, int n,
;                       int k) {
;   int i = get_global_id(0);
;   if (i < n)
;     y[i] = x[i + (k > 0 ? 1 : 2)];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=tail -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=tail -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=MASKED
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=clamped -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=clamped -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=MASKED
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=shifted -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=shifted -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=MASKED
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=shifted -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=shifted -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=SPLIT
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=tail -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=tail -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=SPLIT
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=scale -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=scale -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=SPLIT
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=pick -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=pick -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -iss-cheap-masks -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=SPLIT

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

define spir_kernel void @tail(ptr %y, ptr %x, i32 %n) {
entry:
  %i = call i32 @gid()
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %end

then:
  %ii = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ii
  %vx = load float, ptr %px
  %r = fmul float %vx, 2.0
  %py = getelementptr inbounds float, ptr %y, i64 %ii
  store float %r, ptr %py
  br label %end

end:
  ret void
}

define spir_kernel void @scale(ptr %y, ptr %x, ptr %s, i32 %n, i32 %k) {
entry:
  %i = call i32 @gid()
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %end

then:
  %kk = sext i32 %k to i64
  %ps = getelementptr inbounds float, ptr %s, i64 %kk
  %vs = load float, ptr %ps
  %ii = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %ii
  %vx = load float, ptr %px
  %r = fmul float %vs, %vx
  %py = getelementptr inbounds float, ptr %y, i64 %ii
  store float %r, ptr %py
  br label %end

end:
  ret void
}

define spir_kernel void @clamped(ptr %y, ptr %x, i32 %n) {
entry:
  %i = call i32 @gid()
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %end

then:
  %m = call i32 @llvm.smin.i32(i32 %i, i32 %n)
  %mm = sext i32 %m to i64
  %px = getelementptr inbounds float, ptr %x, i64 %mm
  %vx = load float, ptr %px
  %ii = sext i32 %i to i64
  %py = getelementptr inbounds float, ptr %y, i64 %ii
  store float %vx, ptr %py
  br label %end

end:
  ret void
}

declare i32 @llvm.smin.i32(i32, i32)

define spir_kernel void @shifted(ptr %y, ptr %x, i32 %n, i32 %k) {
entry:
  %i = call i32 @gid()
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %end

then:
  %pos = icmp sgt i32 %k, 0
  %d = select i1 %pos, i32 1, i32 2
  %j = add nsw i32 %i, %d
  %jj = sext i32 %j to i64
  %px = getelementptr inbounds float, ptr %x, i64 %jj
  %vx = load float, ptr %px
  %ii = sext i32 %i to i64
  %py = getelementptr inbounds float, ptr %y, i64 %ii
  store float %vx, ptr %py
  br label %end

end:
  ret void
}

define spir_kernel void @pick(ptr %y, ptr %x, ptr %z, i32 %n) {
entry:
  %i = call i32 @gid()
  %ii = sext i32 %i to i64
  %py = getelementptr inbounds float, ptr %y, i64 %ii
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %else

then:
  %px = getelementptr inbounds float, ptr %x, i64 %ii
  %vx = load float, ptr %px
  store float %vx, ptr %py
  br label %end

else:
  %pz = getelementptr inbounds float, ptr %z, i64 %ii
  %vz = load float, ptr %pz
  store float %vz, ptr %py
  br label %end

end:
  ret void
}

; MASKED: remark: {{.*}}region after entry.barrier not split: its branches only guard consecutive accesses, which the vectorizer's masks cover as fast (-iss-cheap-masks)
; MASKED-LABEL: define void @__iss_sub_{{tail|clamped|shifted}}_0(
; MASKED-NOT: wi.x.tile
; MASKED: wi.x.header:
; MASKED-NOT: wi.x.tile
; MASKED: ret void

; SPLIT-NOT: masks cover
; SPLIT-LABEL: define void @__iss_sub_{{tail|scale|pick|shifted}}_0(
; SPLIT: wi.x.tile.header:
; SPLIT: ret void
