; iss-barriers: every barrier alone in a block of its own (the call and a
; branch), whose successor is a new block without phis: here one barrier
; in the middle of a block and one at the end of an arm that flows into a
; phi. The code around each barrier stays on its side of it.
;
; __kernel void k(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   a[l] = n;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   int v = 2;
;   if (n > 3) { a[l + 1] = 0; barrier(CLK_GLOBAL_MEM_FENCE); v = 1; }
;   a[l] += v;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 %n, ptr %p
  call void @pocl.barrier()
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %then, label %join

then:
  %l1 = add i64 %l, 1
  %p1 = getelementptr inbounds i32, ptr %a, i64 %l1
  store i32 0, ptr %p1
  call void @pocl.barrier()
  br label %join

join:
  %v = phi i32 [ 1, %then ], [ 2, %entry ]
  %o = load i32, ptr %p
  %s = add i32 %o, %v
  store i32 %s, ptr %p
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @k(
; CHECK: store i32 %n, ptr %p
; CHECK-NEXT: br label %[[B1:.*]]
; CHECK: [[B1]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[N1:.*]]
; CHECK: [[N1]]:
; CHECK-NOT: phi
; CHECK: %c = icmp sgt i32 %n, 3
; CHECK: then:
; CHECK: store i32 0, ptr %p1
; CHECK-NEXT: br label %[[B2:.*]]
; CHECK: [[B2]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[N2:.*]]
; The phi moves to the join: the barrier's successor has none.
; CHECK: [[N2]]:
; CHECK-NOT: phi
; CHECK-NEXT: br label %join
; CHECK: join:
; CHECK-NEXT: %v = phi i32 [ 1, %[[N2]] ], [ 2, %[[N1]] ]
