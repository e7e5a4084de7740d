; A barrier right before a conditional branch, in the same block (pocl's
; tests/workgroup/outerlooppar.cl has one after each loop): iss-barriers must
; still give it a block of its own, ended by an unconditional branch, and
; the whole chain must build the work-group function.
;
; __kernel void k(__global int *a) {
;   int l = get_local_id(0);
;   a[l] = 1;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   if (l == 0) a[8] = a[1];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=WG

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

declare void @pocl.barrier() noduplicate

define spir_kernel void @k(ptr %a) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 1, ptr %p
  call void @pocl.barrier()
  %first = icmp eq i64 %l, 0
  br i1 %first, label %then, label %done

then:
  %q = getelementptr inbounds i32, ptr %a, i64 1
  %v = load i32, ptr %q
  %r = getelementptr inbounds i32, ptr %a, i64 8
  store i32 %v, ptr %r
  br label %done

done:
  ret void
}

; CHECK-LABEL: define void @k(
; CHECK: store i32 1
; CHECK-NEXT: br label %[[B:.*]]
; CHECK: [[B]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[N:.*]]
; CHECK: [[N]]:
; CHECK-NOT: call void @pocl.barrier()
; CHECK: br i1

; Two regions, each its own work-item loop; no barrier call is left.
; WG-LABEL: define void @__iss_sub_k_0(
; WG-NOT: call void @pocl.barrier
; WG: region0:
; WG: region1:
; WG-NOT: call void @pocl.barrier
; WG: ret void
