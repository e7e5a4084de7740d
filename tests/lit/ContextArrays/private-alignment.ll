; iss-context: each work-item's copy of a private array keeps the
; alignment the kernel's accesses state for the array. clang aligns a
; float[6] (24 bytes) to 16 and says so on its memset; copies 24 bytes
; apart would put work-item 1's at byte 24, where an aligned 16-byte store
; faults (a Harris corner response's window sums, in the split's scalar
; ranges). So the copies are padded to a multiple of the alignment: 32
; bytes for @k, 128 for @wide. Arrays whose size is a multiple of their
; alignment (@even, @plain) keep their type, unpadded.
;
; __kernel void k(__global float *a) {
;   float t[6] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
;   size_t l = get_local_id(0);
;   t[(int)a[l] % 6] = 1.0f;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   a[l] = t[(int)a[l + 1] % 6];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=wide -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=WIDE
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=even -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=EVEN
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=plain -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=PLAIN

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a) {
entry:
  %t = alloca [6 x float], align 16
  call void @llvm.memset.p0.i64(ptr align 16 %t, i8 0, i64 24, i1 false)
  %l = load i64, ptr @_local_id_x
  %pa = getelementptr inbounds float, ptr %a, i64 %l
  %x = load float, ptr %pa
  %xi = fptosi float %x to i32
  %xr = srem i32 %xi, 6
  %xx = sext i32 %xr to i64
  %tp = getelementptr inbounds [6 x float], ptr %t, i64 0, i64 %xx
  store float 1.0, ptr %tp, align 4
  call void @pocl.barrier()
  %l1 = add i64 %l, 1
  %pa1 = getelementptr inbounds float, ptr %a, i64 %l1
  %y = load float, ptr %pa1
  %yi = fptosi float %y to i32
  %yr = srem i32 %yi, 6
  %yx = sext i32 %yr to i64
  %tq = getelementptr inbounds [6 x float], ptr %t, i64 0, i64 %yx
  %v = load float, ptr %tq, align 4
  store float %v, ptr %pa
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %t.wi = alloca [8 x { [6 x float], [8 x i8] }], align 64
; CHECK-NOT: alloca
; CHECK: %[[X:.*]] = load i64, ptr @_local_id_x
; CHECK-NEXT: %[[MINE:.*]] = getelementptr inbounds [8 x { [6 x float], [8 x i8] }], ptr %t.wi, i64 0, i64 %[[X]]
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 16 %[[MINE]], i8 0, i64 24, i1 false)
; CHECK: %tp = getelementptr inbounds [6 x float], ptr %{{.*}}, i64 0, i64 %xx
; CHECK: call void @pocl.barrier()
; CHECK: %[[MINE2:.*]] = getelementptr inbounds [8 x { [6 x float], [8 x i8] }], ptr %t.wi, i64 0, i64 %{{.*}}
; CHECK-NEXT: %tq = getelementptr inbounds [6 x float], ptr %[[MINE2]], i64 0, i64 %yx

; An alignment past the context arrays' 64: the slot and each copy get it.
define spir_kernel void @wide(ptr %a) {
entry:
  %t = alloca [6 x float], align 128
  %l = load i64, ptr @_local_id_x
  %pa = getelementptr inbounds float, ptr %a, i64 %l
  %x = load float, ptr %pa
  store <4 x float> zeroinitializer, ptr %t, align 128
  %li = urem i64 %l, 6
  %tp = getelementptr inbounds [6 x float], ptr %t, i64 0, i64 %li
  store float %x, ptr %tp, align 4
  call void @pocl.barrier()
  %v = load float, ptr %tp, align 4
  store float %v, ptr %pa
  ret void
}

; WIDE-LABEL: define void @wide(
; WIDE-NEXT: entry:
; WIDE-NEXT: %t.wi = alloca [8 x { [6 x float], [104 x i8] }], align 128
; WIDE: store <4 x float> zeroinitializer, ptr %{{.*}}, align 128

; 32 bytes at 16: no padding.
define spir_kernel void @even(ptr %a) {
entry:
  %t = alloca [8 x float], align 16
  %l = load i64, ptr @_local_id_x
  %pa = getelementptr inbounds float, ptr %a, i64 %l
  %x = load float, ptr %pa
  %tp = getelementptr inbounds [8 x float], ptr %t, i64 0, i64 %l
  store float %x, ptr %tp, align 4
  call void @pocl.barrier()
  %v = load float, ptr %t, align 16
  store float %v, ptr %pa
  ret void
}

; EVEN-LABEL: define void @even(
; EVEN-NEXT: entry:
; EVEN-NEXT: %t.wi = alloca [8 x [8 x float]], align 64
; EVEN-NOT: i8 ]

; 24 bytes at 4: no padding either.
define spir_kernel void @plain(ptr %a) {
entry:
  %t = alloca [6 x float], align 4
  %l = load i64, ptr @_local_id_x
  %pa = getelementptr inbounds float, ptr %a, i64 %l
  %x = load float, ptr %pa
  %li = urem i64 %l, 6
  %tp = getelementptr inbounds [6 x float], ptr %t, i64 0, i64 %li
  store float %x, ptr %tp, align 4
  call void @pocl.barrier()
  %v = load float, ptr %t, align 4
  store float %v, ptr %pa
  ret void
}

; PLAIN-LABEL: define void @plain(
; PLAIN-NEXT: entry:
; PLAIN-NEXT: %t.wi = alloca [8 x [6 x float]], align 64
; PLAIN-NOT: i8 ]

declare void @pocl.barrier() noduplicate
declare void @llvm.memset.p0.i64(ptr nocapture writeonly, i8, i64, i1 immarg)
