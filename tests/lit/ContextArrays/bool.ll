; iss-context: a boolean live across a barrier is kept as a byte per
; work-item (what an i1 takes in memory anyway), zero-extended where it is
; stored and truncated where it is reloaded: the loop vectorizer then
; stores and loads a vector of bytes per tile, where it moves i1 lanes one
; at a time (a barrier loop's `lid < active`, AMD's DwtHaar1D).
;
; __kernel void k(__global int *a, int active) {
;   size_t l = get_local_id(0);
;   bool on = a[l] < active; // not recomputable after the barrier
;   if (on) a[l] = 1;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   if (on) a[l + 64] = 2;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=64 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a, i32 %active) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  %v = load i32, ptr %p
  %on = icmp slt i32 %v, %active
  br i1 %on, label %first, label %wait
first:
  store i32 1, ptr %p
  br label %wait
wait:
  call void @pocl.barrier()
  br i1 %on, label %second, label %done
second:
  %l64 = add i64 %l, 64
  %q = getelementptr inbounds i32, ptr %a, i64 %l64
  store i32 2, ptr %q
  br label %done
done:
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @k(
; CHECK: %on.ctx = alloca [64 x i8], align 64
; CHECK: %on = icmp slt i32 %v, %active
; CHECK-NEXT: %on.byte = zext i1 %on to i8
; CHECK: store i8 %on.byte, ptr %{{.*}}
; CHECK: call void @pocl.barrier()
; CHECK: %[[R:.*]] = load i8, ptr %{{.*}}
; CHECK-NEXT: %[[B:.*]] = trunc i8 %[[R]] to i1
; CHECK: br i1 %[[B]]
; CHECK: !iss.context = !{![[C:[0-9]+]]}
; CHECK: ![[C]] = !{!"k", i64 1, i64 0, i64 0}
