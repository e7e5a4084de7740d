; iss-wi-loops on a b-loop: the region of the loop test (from the header
; barrier) has two exit barriers, the body's and the exit's. Every
; work-item would evaluate the test alike (it reads the counter's uniform
; slot and writes nothing), so work-item 0 evaluates it alone and branches
; to the exit it takes: no nest for the others to follow. So do the
; regions that only move the counter between uniform slots: no loop over
; the work-items. The body's region runs every work-item. The loop itself
; is no work-item loop: the latch region branches back to the header
; region.;
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
; The loop test's region: reached from the latch's region and from
; before the loop.
; CHECK: [[R2:region[0-9]+]]: {{.*}}preds = %[[BACK:header[0-9]+]], %[[H0:header]]{{$}}
; CHECK-NEXT: br label %[[TEST:[a-z0-9.]+]]
; Before the loop: the counter's first value to its slot, once.
; CHECK: [[H0]]:
; CHECK-NEXT: %[[I00:.*]] = phi i32 [ 0, %{{.*}} ]
; CHECK-NEXT: store i32 %[[I00]], ptr %[[ISLOT:[a-z0-9.]+]]
; CHECK-NEXT: br label %[[R2]]
; Work-item 0 evaluates the test, the counter from its uniform slot, and
; goes to the body's region or out.
; CHECK: [[TEST]]:
; CHECK-NEXT: %[[I0:.*]] = load i32, ptr %[[ISLOT]]
; CHECK-NEXT: %[[C0:.*]] = icmp slt i32 %[[I0]], %n.val
; CHECK-NEXT: br i1 %[[C0]], label %[[R3:region[0-9]+]], label %wg.exit
; CHECK-NOT: .follow
; CHECK-NOT: wi.unreachable
; The body's region runs all work-items from 0.
; CHECK: %[[ID:[a-z0-9._]+]] = phi i64 [ 0, %[[R3]] ]
; CHECK: getelementptr inbounds i32, ptr %a.val, i64 %[[ID]]
; CHECK: load i32, ptr %[[ISLOT]]
; The latch's region: the counter's next value to the slot, once, and
; back to the loop test's region.
; CHECK: [[BACK]]:
; CHECK-NEXT: phi i32
; CHECK-NEXT: store i32 %{{.*}}, ptr %[[ISLOT]]
; CHECK-NEXT: br label %[[R2]]
