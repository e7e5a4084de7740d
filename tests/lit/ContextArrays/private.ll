; iss-context: a private array that SROA cannot split (indexed by data)
; gets one copy per work-item, [8*4 x [4 x i32]] aligned to 64, and every
; use addresses the copy of the calling work-item through the linear local
; id (y * 8 + x), so that no private address lives across the barrier. With
; a single work-item the array stays as it is.
;
; __kernel void k(__global int *a) {
;   int t[4];
;   size_t l = get_local_id(0);
;   t[a[l] & 3] = 1;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   a[l] = t[a[l + 1] & 3];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=8,4,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=1,1,1 -S %s | FileCheck %s --check-prefix=ONE

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a) {
entry:
  %t = alloca [4 x i32], align 4
  %l = load i64, ptr @_local_id_x
  %pa = getelementptr inbounds i32, ptr %a, i64 %l
  %x = load i32, ptr %pa
  %xi = and i32 %x, 3
  %xx = zext i32 %xi to i64
  %tp = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %xx
  store i32 1, ptr %tp
  call void @pocl.barrier()
  %l1 = add i64 %l, 1
  %pa1 = getelementptr inbounds i32, ptr %a, i64 %l1
  %y = load i32, ptr %pa1
  %yi = and i32 %y, 3
  %yx = zext i32 %yi to i64
  %tq = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %yx
  %v = load i32, ptr %tq
  store i32 %v, ptr %pa
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %t.wi = alloca [32 x [4 x i32]], align 64
; CHECK-NOT: alloca
; CHECK: br label
; CHECK: %[[Y:.*]] = load i64, ptr @_local_id_y
; CHECK-NEXT: %[[X:.*]] = load i64, ptr @_local_id_x
; CHECK: %[[ROW:.*]] = mul nuw nsw i64 %[[Y]], 8
; CHECK-NEXT: %[[LIN:.*]] = add nuw nsw i64 %[[ROW]], %[[X]]
; CHECK-NEXT: %[[MINE:.*]] = getelementptr inbounds [32 x [4 x i32]], ptr %t.wi, i64 0, i64 %[[LIN]]
; CHECK-NEXT: %tp = getelementptr inbounds [4 x i32], ptr %[[MINE]], i64 0, i64 %xx
; CHECK-NEXT: store i32 1, ptr %tp
; CHECK: call void @pocl.barrier()
; The use after the barrier computes its own address.
; CHECK: %[[Y2:.*]] = load i64, ptr @_local_id_y
; CHECK-NEXT: %[[X2:.*]] = load i64, ptr @_local_id_x
; CHECK: %[[ROW2:.*]] = mul nuw nsw i64 %[[Y2]], 8
; CHECK-NEXT: %[[LIN2:.*]] = add nuw nsw i64 %[[ROW2]], %[[X2]]
; CHECK-NEXT: %[[MINE2:.*]] = getelementptr inbounds [32 x [4 x i32]], ptr %t.wi, i64 0, i64 %[[LIN2]]
; CHECK-NEXT: %tq = getelementptr inbounds [4 x i32], ptr %[[MINE2]], i64 0, i64 %yx
; The address is no context value.
; CHECK: !{!"k", i64 0, i64 0}

; ONE-LABEL: define void @k(
; ONE-NEXT: entry:
; ONE-NEXT: %t = alloca [4 x i32], align 4
; ONE-NOT: .wi
; ONE: %tq = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %yx
