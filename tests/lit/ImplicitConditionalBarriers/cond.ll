; iss-cond-barriers: a barrier in one arm of `if (arg > 3)` is conditional;
; the highest block it post-dominates and that dominates it is the arm's
; first block, which gets a barrier at its start. An unconditional barrier
; gets nothing new. A barrier in a do-while loop post-dominates the block
; before the loop too, but the climb stops at the loop's header: a barrier
; outside the loop would not be executed as often as the one inside.
;
; __kernel void cond(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   if (n > 3) {
;     a[l] = 1;
;     barrier(CLK_GLOBAL_MEM_FENCE);
;     a[l + 1] = 2;
;   }
; }
; __kernel void uncond(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   if (n > 3) a[l] = 1;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   a[l + 1] = 2;
; }
; __kernel void inloop(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   if (n > 3) {
;     int i = 0;
;     do {
;       a[l] += i;
;       barrier(CLK_GLOBAL_MEM_FENCE);
;     } while (++i < n);
;   }
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-cond-barriers -iss-kernel=cond -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-cond-barriers -iss-kernel=uncond -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=UNCOND
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-cond-barriers -iss-kernel=inloop -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=LOOP

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @cond(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %then, label %exit

then:
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 1, ptr %p
  call void @pocl.barrier()
  %l1 = add i64 %l, 1
  %p1 = getelementptr inbounds i32, ptr %a, i64 %l1
  store i32 2, ptr %p1
  br label %exit

exit:
  ret void
}

define spir_kernel void @uncond(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %then, label %join

then:
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 1, ptr %p
  br label %join

join:
  call void @pocl.barrier()
  %l1 = add i64 %l, 1
  %p1 = getelementptr inbounds i32, ptr %a, i64 %l1
  store i32 2, ptr %p1
  ret void
}

define spir_kernel void @inloop(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %pre, label %exit

pre:
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  br label %body

body:
  %i = phi i32 [ 0, %pre ], [ %i.next, %body ]
  %v = load i32, ptr %p
  %v1 = add i32 %v, %i
  store i32 %v1, ptr %p
  call void @pocl.barrier()
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare void @pocl.barrier() noduplicate

; The arm starts with the new barrier, in a block of its own.
; CHECK-LABEL: define void @cond(
; CHECK: br i1 %c, label %[[THEN:.*]], label %exit
; CHECK: [[THEN]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[REST:.*]]
; CHECK: [[REST]]:
; CHECK-NEXT: %p = getelementptr
; CHECK-NEXT: store i32 1, ptr %p
; CHECK-NEXT: br label %[[B:.*]]
; CHECK: [[B]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: store i32 2, ptr %p1

; Entry, explicit and exit barriers only.
; UNCOND-LABEL: define void @uncond(
; UNCOND: call void @pocl.barrier()
; UNCOND-NOT: call void @pocl.barrier()
; UNCOND: join:
; UNCOND-NEXT: call void @pocl.barrier()
; UNCOND-NOT: call void @pocl.barrier()
; UNCOND: store i32 2, ptr %p1
; UNCOND-NEXT: br label %[[XB:.*]]
; UNCOND: [[XB]]:
; UNCOND-NEXT: call void @pocl.barrier()
; UNCOND-NEXT: ret void

; Nothing in the block before the loop; a barrier after the header's phi.
; LOOP-LABEL: define void @inloop(
; LOOP: pre:
; LOOP-NEXT: %p = getelementptr
; LOOP-NEXT: br label %body
; LOOP: body:
; LOOP-NEXT: %i = phi i32
; LOOP-NEXT: br label %[[NB:.*]]
; LOOP: [[NB]]:
; LOOP-NEXT: call void @pocl.barrier()
; LOOP: store i32 %v1, ptr %p
; LOOP-NEXT: br label %[[B:.*]]
; LOOP: [[B]]:
; LOOP-NEXT: call void @pocl.barrier()
