; iss-wi-loops on a b-loop: the region of the loop test (from the header
; barrier) has two exit barriers, the body's and the exit's, so it is
; peeled: work-item 0 evaluates the test, the others follow in a nest that
; starts at 1 with the other exit unreachable. The loop itself is no
; work-item loop: the latch region branches back to the header region.
;
; __kernel void k(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   for (int i = 0; i < n; ++i) {
;     a[l] += i;
;     barrier(CLK_GLOBAL_MEM_FENCE);
;   }
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  br label %header

header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit

body:
  %v = load i32, ptr %p
  %v1 = add i32 %v, %i
  store i32 %v1, ptr %p
  call void @pocl.barrier()
  %i.next = add i32 %i, 1
  br label %header

exit:
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @__iss_sub_k_0(
; CHECK-NOT: call void @pocl.barrier
; The loop test's region: reached from before the loop and from the latch.
; CHECK: [[R2:region[0-9]+]]: {{.*}}preds = %[[BACK:[a-z0-9.]+]], %{{[a-z0-9.]+}}
; CHECK-NEXT: br label %[[TEST:[a-z0-9.]+]]
; CHECK: [[F1:[a-z0-9.]+\.follow[0-9]*]]: {{.*}}preds = %[[TEST]]
; CHECK-NEXT: br label %[[H1:[a-z0-9.]+]]
; CHECK: [[F2:[a-z0-9.]+\.follow[0-9]*]]: {{.*}}preds = %[[TEST]]
; CHECK-NEXT: br label %[[H2:[a-z0-9.]+]]
; Work-item 0 evaluates the test, the counter from its uniform slot.
; CHECK: [[TEST]]:
; CHECK-NEXT: %[[I0:.*]] = load i32, ptr %[[ISLOT:[a-z0-9.]+]]
; CHECK-NEXT: %[[C0:.*]] = icmp slt i32 %[[I0]], %n.val
; CHECK-NEXT: br i1 %[[C0]], label %[[F1]], label %[[F2]]
; Into the body: the others from 1, the exit unreachable for them.
; CHECK: [[H1]]:
; CHECK-NEXT: phi i64 [ 1, %[[F1]] ]
; CHECK: [[U1:wi.unreachable[0-9]*]]:
; CHECK-NEXT: unreachable
; CHECK: %[[C1:.*]] = icmp slt i32 %{{.*}}, %n.val
; CHECK-NEXT: br i1 %[[C1]], label %{{.*}}, label %[[U1]]
; Out of the loop: likewise, the body unreachable.
; CHECK: [[H2]]:
; CHECK-NEXT: phi i64 [ 1, %[[F2]] ]
; CHECK: [[U2:wi.unreachable[0-9]*]]:
; CHECK-NEXT: unreachable
; CHECK: %[[C2:.*]] = icmp slt i32 %{{.*}}, %n.val
; CHECK-NEXT: br i1 %[[C2]], label %[[U2]], label %{{.*}}
; The body's region runs all work-items from 0.
; CHECK: %[[ID:[a-z0-9._]+]] = phi i64 [ 0, %{{.*}} ]
; CHECK: getelementptr inbounds i32, ptr %a.val, i64 %[[ID]]
; CHECK: load i32, ptr %[[ISLOT]]
; The latch's region goes back to the loop test's region.
; CHECK: [[BACK]]:
; CHECK-NEXT: br label %[[R2]]
; CHECK-NOT: call void @pocl.barrier
; CHECK: wg.exit:
; CHECK-NEXT: ret void
