; iss-wi-loops with a barrier: the regions before and after it become two
; work-item loop nests, one after the other, and no barrier call is left
; in the work-group function. With a local size of 1x1x1 there are no
; loops at all: the regions' copies follow each other.
;
; __kernel void k(__global int *a) {
;   size_t l = get_local_id(0);
;   a[l] = 1;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   a[l + 1] += 2;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=1,1,1 -S %s | FileCheck %s --check-prefix=ONE

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 1, ptr %p
  call void @pocl.barrier()
  %l1 = add i64 %l, 1
  %p1 = getelementptr inbounds i32, ptr %a, i64 %l1
  %v = load i32, ptr %p1
  %v2 = add i32 %v, 2
  store i32 %v2, ptr %p1
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @__iss_sub_k_0(
; CHECK-NOT: call void @pocl.barrier
; CHECK: br label %[[R0:[a-z0-9.]+]]
; CHECK: [[R0]]:
; CHECK-NEXT: br label %[[H1:[a-z0-9.]+]]
; CHECK: [[R1:[a-z0-9.]+]]: {{.*}}preds = %[[D1:[a-z0-9.]+]]
; CHECK-NEXT: br label %[[H2:[a-z0-9.]+]]
; The first region's nest, then the second region.
; CHECK: [[H1]]:
; CHECK-NEXT: %[[ID1:[a-z0-9._]+]] = phi i64 [ 0, %[[R0]] ], [ %[[NEXT1:[a-z0-9._]+]], %[[L1:[a-z0-9.]+]] ]
; CHECK: [[L1]]:
; CHECK-NEXT: %[[NEXT1]] = add nuw nsw i64 %[[ID1]], 1
; CHECK-NEXT: %[[C1:.*]] = icmp ult i64 %[[NEXT1]], 8
; CHECK-NEXT: br i1 %[[C1]], label %[[H1]], label %[[D1]], !llvm.loop
; CHECK: [[D1]]:
; CHECK-NEXT: br label %[[R1]]
; CHECK: %p = getelementptr inbounds i32, ptr %a.val, i64 %[[ID1]]
; CHECK-NEXT: store i32 1, ptr %p, align 4, !llvm.access.group ![[G1:[0-9]+]]
; The second region's nest, then the exit.
; CHECK: [[H2]]:
; CHECK-NEXT: %[[ID2:[a-z0-9._]+]] = phi i64 [ 0, %[[R1]] ], [ %[[NEXT2:[a-z0-9._]+]], %[[L2:[a-z0-9.]+]] ]
; CHECK: [[L2]]:
; CHECK-NEXT: %[[NEXT2]] = add nuw nsw i64 %[[ID2]], 1
; CHECK-NEXT: %[[C2:.*]] = icmp ult i64 %[[NEXT2]], 8
; CHECK-NEXT: br i1 %[[C2]], label %[[H2]], label %[[D2:[a-z0-9.]+]], !llvm.loop
; CHECK: [[D2]]:
; CHECK-NEXT: br label %wg.exit
; CHECK: %l1 = add i64 %[[ID2]], 1
; CHECK: store i32 %v2, ptr %p1, align 4, !llvm.access.group ![[G2:[0-9]+]]
; CHECK-NOT: call void @pocl.barrier
; CHECK: wg.exit:
; CHECK-NEXT: ret void

; ONE-LABEL: define void @__iss_sub_k_0(
; ONE-NOT: phi
; ONE-NOT: !llvm.loop
; ONE: %p = getelementptr inbounds i32, ptr %a.val, i64 0
; ONE-NEXT: store i32 1, ptr %p, align 4
; ONE-NOT: phi
; ONE-NOT: !llvm.loop
; ONE: %l1 = add i64 0, 1
; ONE-NOT: phi
; ONE-NOT: !llvm.loop
; ONE-NOT: call void @pocl.barrier
; ONE: ret void
; ONE-NEXT: }
