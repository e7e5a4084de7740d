; iss-context: private storage past the stack budget moves to scratch
; memory, whose base is aligned to a page (ISS_SCRATCH_ALIGN,
; WorkGroupABI.h), at an offset aligned to the slot's own alignment, the
; largest slot first: @k's r (4 MiB and 4 bytes) at offset 0, then p,
; aligned to 128, at 4194432, the next multiple of 128; q, aligned to 8192,
; more than a page, keeps the stack, which LLVM realigns for it.
;
; __kernel void k(__global int *a, int n) {
;   __attribute__((aligned(128))) int p[1048576];
;   __attribute__((aligned(8192))) int q[1048576];
;   int r[1048577];
;   p[n] = q[n] = r[n] = n;
;   a[0] = p[n] + q[n + 1] + r[n + 2];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=1,1,1 -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %p = alloca [1048576 x i32], align 128
  %q = alloca [1048576 x i32], align 8192
  %r = alloca [1048577 x i32], align 4
  %nx = zext i32 %n to i64
  %pp = getelementptr inbounds [1048576 x i32], ptr %p, i64 0, i64 %nx
  %qp = getelementptr inbounds [1048576 x i32], ptr %q, i64 0, i64 %nx
  %rp = getelementptr inbounds [1048577 x i32], ptr %r, i64 0, i64 %nx
  store i32 %n, ptr %pp
  store i32 %n, ptr %qp
  store i32 %n, ptr %rp
  %v = load i32, ptr %pp
  %w = load i32, ptr %qp
  %x = load i32, ptr %rp
  %s = add i32 %v, %w
  %t = add i32 %s, %x
  store i32 %t, ptr %a
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %q = alloca [1048576 x i32], align 8192
; CHECK-NOT: alloca
; CHECK-DAG: %r.scratch = getelementptr inbounds i8, ptr %{{.*}}, i64 0
; CHECK-DAG: %p.scratch = getelementptr inbounds i8, ptr %{{.*}}, i64 4194432
; CHECK: !{!"k", i64 0, i64 0, i64 8388736}
