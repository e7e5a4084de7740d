; iss-loop-barriers: a loop with a barrier (a b-loop) gets barriers at the
; end of its preheader, right after its header's phis and before its latch
; branch, so that each piece of an iteration is a parallel region of its
; own; a header that tests for the exit also gets one at the start of each
; successor, so that its test is a region alone (the one iss-wi-loops
; peels). The same loop without the barrier, with horizontal
; parallelization off, gets none.
;
; __kernel void k(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   for (int i = 0; i < n; ++i) {
;     a[l] += i;
;     barrier(CLK_GLOBAL_MEM_FENCE);
;     a[l + 1] -= i;
;   }
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=nobarrier -iss-local-size=8,1,1 -iss-horizontal=false -S %s | FileCheck %s --check-prefix=NONE

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  %l1 = add i64 %l, 1
  %p1 = getelementptr inbounds i32, ptr %a, i64 %l1
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
  %w = load i32, ptr %p1
  %w1 = sub i32 %w, %i
  store i32 %w1, ptr %p1
  %i.next = add i32 %i, 1
  br label %header

exit:
  ret void
}

define spir_kernel void @nobarrier(ptr %a, i32 %n) {
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
  %i.next = add i32 %i, 1
  br label %header

exit:
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @k(
; CHECK: call void @pocl.barrier()
; The preheader ends with a barrier.
; CHECK: %p1 = getelementptr
; CHECK-NEXT: br label %[[PB:.*]]
; CHECK: [[PB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[PRE:.*]]
; CHECK: [[PRE]]:
; CHECK-NEXT: br label %header
; The header's phis, then a barrier, then the loop test.
; CHECK: header:
; CHECK-NEXT: %i = phi i32 [ 0, %[[PRE]] ], [ %i.next, %[[LATCH:.*]] ]
; CHECK-NEXT: br label %[[HB:.*]]
; CHECK: [[HB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[TEST:.*]]
; CHECK: [[TEST]]:
; CHECK-NEXT: %c = icmp slt i32 %i, %n
; CHECK-NEXT: br i1 %c, label %body, label %exit
; The body starts with a barrier; the exit is the exit barrier already.
; CHECK: body:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %body.next
; The explicit barrier.
; CHECK: store i32 %v1, ptr %p
; CHECK-NEXT: br label %[[BB:.*]]
; CHECK: [[BB]]:
; CHECK-NEXT: call void @pocl.barrier()
; A barrier before the latch branch.
; CHECK: %i.next = add i32 %i, 1
; CHECK-NEXT: br label %[[LB:.*]]
; CHECK: [[LB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[LATCH]]
; CHECK: [[LATCH]]:
; CHECK-NEXT: br label %header
; CHECK: exit:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: ret void

; Only the entry and exit barriers.
; NONE-LABEL: define void @nobarrier(
; NONE-COUNT-2: call void @pocl.barrier()
; NONE-NEXT: ret void
