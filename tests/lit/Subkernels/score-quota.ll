; iss-subkernels under its score quota (-iss-score-part-ops): periodic
; guards beside a tail guard cut an access's parts into pieces whose boxes
; isl's maxima and unions multiply without end (this kernel's scores did
; not end in minutes). Past the quota the kernel is not scored: the first
; subkernel alone runs every launch, as in `vec`, and a remark says why.
;
; __kernel void periodic(__global int *out, int n) {
;   int i = get_global_id(0);
;   if (i < n) {
;     if ((i & 3) == 0)
;       out[i] = 1;
;     else if (i % 5 == 0)
;       out[i] = 2;
;   }
; }
; __kernel void tail(__global int *out, int n) {
;   int i = get_global_id(0);
;   if (i < n)
;     out[i] = 1;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=periodic -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=score -pass-remarks-missed=iss-subkernels -S %s 2>&1 | FileCheck %s --check-prefix=PERIODIC
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split)' -iss-kernel=periodic -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=split+score -pass-remarks-missed=iss-subkernels -S %s 2>&1 | FileCheck %s --check-prefix=PERIODIC-SPLIT
; A tail guard alone is scored well within the quota: the scalar fallback
; stays beside the vector subkernel for launches with no whole tile...
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=tail -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=score -pass-remarks-missed=iss-subkernels -S %s 2>&1 | FileCheck %s --check-prefix=TAIL
; ...but not under a quota of a thousand operations.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=tail -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=score -iss-score-part-ops=1000 -pass-remarks-missed=iss-subkernels -S %s 2>&1 | FileCheck %s --check-prefix=TINY
; The scores size each distinct part of an access once; past
; -iss-score-max-parts of them in a kernel (a stencil of many clamped taps
; has two per tap) it is not scored either.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=tail -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=score -iss-score-max-parts=0 -pass-remarks-missed=iss-subkernels -S %s 2>&1 | FileCheck %s --check-prefix=PARTS
; print<iss-scores> says the same, and the scores within the limits.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,print<iss-scores>' -iss-kernel=tail -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=score -iss-score-max-parts=0 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=PARTS-SCORES
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,print<iss-scores>' -iss-kernel=tail -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=score -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=TAIL-SCORES
; Where the model runs out of its quota (-iss-model-max-ops) no region is
; modelled, and every dimension would score 0 against the scalar
; fallback's 1: the scalar subkernel ran every launch. Not scored instead.
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-wi-loops)' -iss-kernel=tail -iss-local-size=16,1,1 -iss-vector-width=16 -iss-mode=score -iss-model-max-ops=1 -pass-remarks-missed=iss-subkernels -S %s 2>&1 | FileCheck %s --check-prefix=UNMODELLED

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

define spir_kernel void @periodic(ptr %out, i32 %n) {
entry:
  %i = call i32 @gid()
  %c = icmp slt i32 %i, %n
  br i1 %c, label %guarded, label %end

guarded:
  %ii = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %ii
  %m4 = and i32 %i, 3
  %z4 = icmp eq i32 %m4, 0
  br i1 %z4, label %fourth, label %other

other:
  %m5 = srem i32 %i, 5
  %z5 = icmp eq i32 %m5, 0
  br i1 %z5, label %fifth, label %end

fourth:
  store i32 1, ptr %p
  br label %end

fifth:
  store i32 2, ptr %p
  br label %end

end:
  ret void
}

define spir_kernel void @tail(ptr %out, i32 %n) {
entry:
  %i = call i32 @gid()
  %c = icmp slt i32 %i, %n
  br i1 %c, label %then, label %end

then:
  %ii = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %out, i64 %ii
  store i32 1, ptr %p
  br label %end

end:
  ret void
}

; PERIODIC: remark: {{.*}} subkernel score:x/16 alone, not scored: the parts of an access in {{[a-z]+}}: isl ran out of quota
; PERIODIC-LABEL: define i32 @__iss_select_periodic(ptr %0, ptr %1)
; PERIODIC-NEXT: entry:
; PERIODIC-NEXT: ret i32 0
; PERIODIC-LABEL: define void @__iss_sub_periodic_0
; PERIODIC-NOT: define void @__iss_sub_periodic_1
; PERIODIC: !iss.subkernels = !{![[S:[0-9]+]]}
; PERIODIC: ![[S]] = !{!"periodic", !"__iss_sub_periodic_0", !"score:x/16"}

; PERIODIC-SPLIT: remark: {{.*}} subkernel split+score:x/16 alone, not scored: the parts of an access in {{[a-z]+}}: isl ran out of quota
; PERIODIC-SPLIT: !iss.subkernels = !{![[S:[0-9]+]]}
; PERIODIC-SPLIT: ![[S]] = !{!"periodic", !"__iss_sub_periodic_0", !"split+score:x/16"}

; TAIL-NOT: not scored
; TAIL: !iss.subkernels = !{![[S0:[0-9]+]], ![[S1:[0-9]+]]}
; TAIL: ![[S0]] = !{!"tail", !"__iss_sub_tail_0", !"score:x/16"}
; TAIL: ![[S1]] = !{!"tail", !"__iss_sub_tail_1", !"score:scalar"}

; TINY: remark: {{.*}} subkernel score:x/16 alone, not scored: the parts of an access in then: isl ran out of quota
; TINY: !iss.subkernels = !{![[S:[0-9]+]]}
; TINY: ![[S]] = !{!"tail", !"__iss_sub_tail_0", !"score:x/16"}

; PARTS: remark: {{.*}} subkernel score:x/16 alone, not scored: more than 0 parts of accesses to size (-iss-score-max-parts)
; PARTS: !iss.subkernels = !{![[S:[0-9]+]]}
; PARTS: ![[S]] = !{!"tail", !"__iss_sub_tail_0", !"score:x/16"}

; PARTS-SCORES-LABEL: iss-scores of @tail, local size 16x1x1, score
; PARTS-SCORES-NEXT: subkernel score:x/16 alone, not scored: more than 0 parts of accesses to size (-iss-score-max-parts)
; PARTS-SCORES-NOT: subkernel

; TAIL-SCORES-LABEL: iss-scores of @tail, local size 16x1x1, score
; TAIL-SCORES-NEXT: subkernel score:x/16, {{[0-9]+}} of {{[0-9]+}} parts exact, score 0 + 2 *
; TAIL-SCORES-NEXT: subkernel score:scalar, 0 of 0 parts exact, score 1{{$}}

; UNMODELLED: remark: {{.*}} subkernel score:x/16 alone, not scored: no region is modelled: isl ran out of quota
; UNMODELLED: !iss.subkernels = !{![[S:[0-9]+]]}
; UNMODELLED: ![[S]] = !{!"tail", !"__iss_sub_tail_0", !"score:x/16"}
