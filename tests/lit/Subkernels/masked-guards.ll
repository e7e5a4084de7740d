; iss-subkernels with -iss-cheap-masks in `split+score`: where the
; masked-guard rule leaves every region unsplit along the first dimension
; as written (straight-line code, its branches guards, its accesses all
; consecutive along it; see tests/lit/Split/cheap-masks.ll), that
; dimension's subkernel is built alone and nothing is scored: the compile
; costs what `vec`'s does. Scored, tail would keep the scalar fallback
; beside it for the launches where n leaves no whole tile.
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
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=tail -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split+score -iss-cheap-masks -S %s | FileCheck %s --check-prefix=ALONE
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,print<iss-scores>' -iss-kernel=tail -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split+score -iss-cheap-masks -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=ALONE-SCORES
; Without -iss-cheap-masks the region is split and scored: the scalar
; fallback stays beside x.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=tail -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split+score -S %s | FileCheck %s --check-prefix=SCORED
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,print<iss-scores>' -iss-kernel=tail -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split+score -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=SCORED-SCORES
; scale's uniform load s[k] under the guard is not consecutive: the rule
; does not apply, and the subkernels are scored.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=scale -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split+score -iss-cheap-masks -S %s | FileCheck %s --check-prefix=SCALE
; `score` does not split: its subkernels are scored.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=tail -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=score -iss-cheap-masks -S %s | FileCheck %s --check-prefix=SCORE

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

; ALONE-SCORES-LABEL: iss-scores of @tail, local size 16x4x1, split+score
; ALONE-SCORES-NEXT: subkernel split+score:x/8 alone, not scored: the masks cover every region along it (-iss-cheap-masks)
; ALONE-SCORES-NOT: subkernel split+score:scalar

; ALONE-LABEL: define i32 @__iss_select_tail(ptr %0, ptr %1)
; ALONE-NEXT: entry:
; ALONE-NEXT: ret i32 0
; ALONE-LABEL: define void @__iss_sub_tail_0
; ALONE-NOT: define void @__iss_sub_tail_1
; ALONE: !iss.subkernels = !{![[S:[0-9]+]]}
; ALONE: ![[S]] = !{!"tail", !"__iss_sub_tail_0", !"split+score:x/8"}

; SCORED-SCORES-LABEL: iss-scores of @tail, local size 16x4x1, split+score
; SCORED-SCORES-NEXT: subkernel split+score:x/8, 2 of 2 parts exact, score 0 + 4 *
; SCORED-SCORES-NEXT: subkernel split+score:scalar, 0 of 0 parts exact, score 1{{$}}

; SCORED-LABEL: define i32 @__iss_select_tail
; SCORED: select
; SCORED-LABEL: define void @__iss_sub_tail_0
; SCORED-LABEL: define void @__iss_sub_tail_1
; SCORED: !iss.subkernels = !{![[S0:[0-9]+]], ![[S1:[0-9]+]]}
; SCORED: ![[S0]] = !{!"tail", !"__iss_sub_tail_0", !"split+score:x/8"}
; SCORED: ![[S1]] = !{!"tail", !"__iss_sub_tail_1", !"split+score:scalar"}

; SCALE-LABEL: define void @__iss_sub_scale_0
; SCALE-LABEL: define void @__iss_sub_scale_1
; SCALE: !iss.subkernels = !{![[S0:[0-9]+]], ![[S1:[0-9]+]]}
; SCALE: ![[S1]] = !{!"scale", !"__iss_sub_scale_1", !"split+score:scalar"}

; SCORE: !iss.subkernels = !{![[S0:[0-9]+]], ![[S1:[0-9]+]]}
; SCORE: ![[S0]] = !{!"tail", !"__iss_sub_tail_0", !"score:x/8"}
; SCORE: ![[S1]] = !{!"tail", !"__iss_sub_tail_1", !"score:scalar"}
