; iss-scalarize: the vectors of a subkernel are split into lanes, loads
; and stores too, for the loop vectorizer to widen across work-items; the
; library's x86 intrinsics become generic IR first, which the Scalarizer
; can split. A scalar subkernel, one kept as written (iss-as-written) and
; functions that are not subkernels keep their vectors.
;
; RUN: pocl-iss-opt -passes=iss-scalarize -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @__iss_sub_k_0(
; CHECK-NOT: <4 x float>
; CHECK-NOT: @llvm.x86.sse.max.ps
; CHECK: fcmp ogt float
; CHECK: store float
; CHECK-NOT: <4 x float>
; CHECK: ret void
define void @__iss_sub_k_0(ptr %args, ptr %ctx) {
  %a = load <4 x float>, ptr %args
  %b = load <4 x float>, ptr %ctx
  %m = call <4 x float> @llvm.x86.sse.max.ps(<4 x float> %a, <4 x float> %b)
  store <4 x float> %m, ptr %args
  ret void
}

; CHECK-LABEL: define void @__iss_sub_k_1(
; CHECK: call <4 x float> @llvm.x86.sse.max.ps
; CHECK: store <4 x float>
define void @__iss_sub_k_1(ptr %args, ptr %ctx) "iss-scalar" {
  %a = load <4 x float>, ptr %args
  %b = load <4 x float>, ptr %ctx
  %m = call <4 x float> @llvm.x86.sse.max.ps(<4 x float> %a, <4 x float> %b)
  store <4 x float> %m, ptr %args
  ret void
}

; CHECK-LABEL: define void @__iss_sub_k_2(
; CHECK: %s = add <8 x i32>
; CHECK: store <8 x i32> %s
define void @__iss_sub_k_2(ptr %args, ptr %ctx) "iss-as-written" {
  %a = load <8 x i32>, ptr %args
  %s = add <8 x i32> %a, %a
  store <8 x i32> %s, ptr %args
  ret void
}

; CHECK-LABEL: define void @other(
; CHECK: %s = add <8 x i32>
define void @other(ptr %p) {
  %a = load <8 x i32>, ptr %p
  %s = add <8 x i32> %a, %a
  store <8 x i32> %s, ptr %p
  ret void
}

declare <4 x float> @llvm.x86.sse.max.ps(<4 x float>, <4 x float>)
