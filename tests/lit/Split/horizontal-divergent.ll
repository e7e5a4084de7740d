; iss-split in `split` mode: no horizontal parallelization inside a
; range for a kernel loop whose accesses are all divergent across the
; lanes. Rodinia's kmeans_swap transposes a row-major matrix: in the range
; of whole tiles the guard folds and the feature loop runs as often on
; every lane, but the lanes read with stride nf and write through a
; product of the counter and np (neither consecutive nor uniform for the
; model). With the loop over lanes inside it, the vector loop would only
; gather and scatter, which the vectorizer declines (kmeans-swap's tiles
; ran scalar, 15 % slower than `vec`); left inside each work-item, the
; feature loop reads its row consecutively and is vectorized as in `vec`.
; The range's tiles then stay scalar around it, so the guard it folds
; gains nothing: the region is not split at all (as in `vec`, at `vec`'s
; compile time), and a remark says why. Positive: the same loop also
; reading scale[i], the same address on every lane, keeps its lanes inside
; (wi.lanes).
;
; __kernel void swap(__global const float *in, __global float *out,
;                    int np, int nf) {
;   unsigned int t = get_global_id(0);
;   if (t < np)
;     for (int i = 0; i < nf; i++)
;       out[i * np + t] = in[t * nf + i];
; }
; swapscaled: out[i * np + t] = in[t * nf + i] * scale[i].
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=swap -iss-local-size=64,1,1 -iss-vector-width=16 -iss-cheap-masks -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=swap -iss-local-size=64,1,1 -iss-vector-width=16 -iss-cheap-masks -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=swapscaled -iss-local-size=64,1,1 -iss-vector-width=16 -iss-cheap-masks -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=swapscaled -iss-local-size=64,1,1 -iss-vector-width=16 -iss-cheap-masks -iss-mode=split -pass-remarks-missed=iss-split -S 2>&1 | FileCheck %s --check-prefix=SCALED

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @swap(ptr %in, ptr %out, i32 %np, i32 %nf) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %t = trunc i64 %g to i32
  %c = icmp ult i32 %t, %np
  br i1 %c, label %for.cond, label %end

for.cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.body ]
  %ci = icmp slt i32 %i, %nf
  br i1 %ci, label %for.body, label %end

for.body:
  %m = mul i32 %t, %nf
  %a = add i32 %m, %i
  %ai = zext i32 %a to i64
  %p = getelementptr inbounds float, ptr %in, i64 %ai
  %v = load float, ptr %p
  %m2 = mul nsw i32 %i, %np
  %a2 = add i32 %m2, %t
  %ai2 = zext i32 %a2 to i64
  %q = getelementptr inbounds float, ptr %out, i64 %ai2
  store float %v, ptr %q
  %i.next = add nsw i32 %i, 1
  br label %for.cond

end:
  ret void
}

define spir_kernel void @swapscaled(ptr %in, ptr %out, ptr %scale, i32 %np, i32 %nf) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %t = trunc i64 %g to i32
  %c = icmp ult i32 %t, %np
  br i1 %c, label %for.cond, label %end

for.cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.body ]
  %ci = icmp slt i32 %i, %nf
  br i1 %ci, label %for.body, label %end

for.body:
  %m = mul i32 %t, %nf
  %a = add i32 %m, %i
  %ai = zext i32 %a to i64
  %p = getelementptr inbounds float, ptr %in, i64 %ai
  %v = load float, ptr %p
  %ii = sext i32 %i to i64
  %ps = getelementptr inbounds float, ptr %scale, i64 %ii
  %s = load float, ptr %ps
  %vs = fmul float %v, %s
  %m2 = mul nsw i32 %i, %np
  %a2 = add i32 %m2, %t
  %ai2 = zext i32 %a2 to i64
  %q = getelementptr inbounds float, ptr %out, i64 %ai2
  store float %vs, ptr %q
  %i.next = add nsw i32 %i, 1
  br label %for.cond

end:
  ret void
}

; CHECK: remark: {{.*}}region after entry.barrier not split: what it would fold or mend lies in ranges whose tiles stay scalar, the loop at for.cond kept per work-item there: its accesses are all divergent across the lanes
; CHECK-LABEL: define void @__iss_sub_swap_0(
; One plain loop over the work-items, the guard and the feature loop in
; each, as in `vec`.
; CHECK-NOT: wi.range
; CHECK: wi.x.header:
; CHECK-NEXT: %local_id_x = phi i64
; CHECK: %c{{[0-9]*}} = icmp ult i32 %t{{[0-9]*}}, %np.val
; CHECK: for.cond{{[0-9]*}}:
; CHECK-NEXT: %i{{[0-9]*}} = phi i32
; CHECK: store float %v{{[0-9]*}}, ptr %q{{[0-9]*}}
; CHECK-NOT: wi.tiles
; CHECK-NOT: wi.lanes

; SCALED-NOT: remark: {{.*}}accesses are all divergent
; SCALED-LABEL: define void @__iss_sub_swapscaled_0(
; SCALED: wi.x.tiles.header:
; SCALED: br label %wi.lanes
; SCALED: wi.lanes.end:
