; The paper's Figure 4: a condition on a parameter alone (p > 0) is hoisted
; out of the work-item loop, which is versioned for it, in every vector
; mode. iss-split marks the work-item loops parallel and leaves the
; uniform branch inside; LLVM's loop unswitching in the O3 pipeline that
; the compiler runs next (lib/Compiler/Backend/Pipeline.cpp) makes the two
; versions, and each becomes straight vector code: one test per work
; group, no select and no mask per work-item.
;
; __kernel void f4(__global float *restrict A, __global const float *B,
;                  int p) {
;   size_t x = get_global_id(0);
;   A[x] = p > 0 ? B[x] * 2.0f : B[x] + 1.0f + B[get_local_id(0)];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=f4 -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split,default<O3>' -iss-kernel=f4 -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops,default<O3>' -iss-kernel=f4 -iss-local-size=64,1,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @f4(ptr noalias %A, ptr noalias %B, i32 %p) {
entry:
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  %pb = getelementptr inbounds float, ptr %B, i64 %g
  %v = load float, ptr %pb
  %c = icmp sgt i32 %p, 0
  br i1 %c, label %then, label %else
then:
  %a = fmul float %v, 2.0
  br label %end
else:
  %b = fadd float %v, 1.0
  %pb2 = getelementptr inbounds float, ptr %B, i64 %lid
  %v2 = load float, ptr %pb2
  %b2 = fadd float %b, %v2
  br label %end
end:
  %r = phi float [ %a, %then ], [ %b2, %else ]
  %pa = getelementptr inbounds float, ptr %A, i64 %g
  store float %r, ptr %pa
  ret void
}

; CHECK-LABEL: define void @__iss_sub_f4_0(
; CHECK: entry:
; CHECK: %c = icmp sgt i32 %p.val, 0
; CHECK-NEXT: br i1 %c, label %[[THEN:.*]], label %[[ELSE:.*]]
; CHECK-NOT: icmp sgt i32
; CHECK-NOT: select
; CHECK: [[ELSE]]:
; CHECK: load <8 x float>
; CHECK: fadd <8 x float>
; CHECK: [[THEN]]:
; CHECK: load <8 x float>
; CHECK: fmul <8 x float>
; CHECK: ret void
