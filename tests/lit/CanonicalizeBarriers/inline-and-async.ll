; iss-barriers: a barrier inside a called function ends up in the kernel's
; body (the call is inlined, then the barrier isolated); an async copy
; (the library's blocking copy by work-item 0) is inlined between two
; barriers, one right before its code and one right after.
;
; void sync(__global int *a, size_t l) { a[l] = 1; barrier(CLK_GLOBAL_MEM_FENCE); }
; __kernel void k(__global int *a, __local int *s) {
;   size_t l = get_local_id(0);
;   sync(a, l);
;   a[8] = 3;
;   event_t e = async_work_group_copy(s, a, 8, 0);
;   wait_group_events(1, &e);
;   a[l] = s[l];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_func void @sync(ptr %a, i64 %l) {
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 1, ptr %p
  call void @pocl.barrier()
  ret void
}

; Work-item 0 copies.
define spir_func ptr @_Z21async_work_group_copyPU3AS3iPKU3AS1ijj9ocl_event(ptr %dst, ptr %src, i64 %n, ptr %ev) {
entry:
  %l = load i64, ptr @_local_id_x
  %first = icmp eq i64 %l, 0
  br i1 %first, label %copy, label %done

copy:
  %bytes = shl i64 %n, 2
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 %bytes, i1 false)
  br label %done

done:
  ret ptr %ev
}

define spir_kernel void @k(ptr %a, ptr %s) {
entry:
  %l = load i64, ptr @_local_id_x
  call spir_func void @sync(ptr %a, i64 %l)
  %a8 = getelementptr inbounds i32, ptr %a, i64 8
  store i32 3, ptr %a8
  %e = call spir_func ptr @_Z21async_work_group_copyPU3AS3iPKU3AS1ijj9ocl_event(ptr %s, ptr %a, i64 8, ptr null)
  %sp = getelementptr inbounds i32, ptr %s, i64 %l
  %v = load i32, ptr %sp
  %ap = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 %v, ptr %ap
  ret void
}

declare void @pocl.barrier() noduplicate
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: define void @k(
; CHECK-NOT: call {{.*}}@sync
; CHECK: store i32 1, ptr %{{.*}}
; CHECK-NEXT: br label %[[B1:.*]]
; CHECK: [[B1]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[N1:.*]]
; CHECK: [[N1]]:
; CHECK-NOT: pocl.barrier
; CHECK: store i32 3, ptr %{{.*}}
; CHECK-NEXT: br label %[[B0:.*]]
; CHECK: [[B0]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[N0:.*]]
; CHECK: [[N0]]:
; CHECK-NEXT: %{{.*}} = load i64, ptr @_local_id_x
; CHECK-NEXT: icmp eq i64 %{{.*}}, 0
; CHECK-NOT: pocl.barrier
; CHECK: call void @llvm.memcpy
; CHECK-NOT: pocl.barrier
; CHECK: br label %[[B2:.*]]
; CHECK: [[B2]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %[[N2:.*]]
; CHECK: [[N2]]:
; CHECK-NOT: pocl.barrier
; CHECK: load i32, ptr %{{.*}}
; CHECK: store i32 %{{.*}}
; CHECK-NEXT: br label %[[XB:.*]]
; CHECK: [[XB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: ret void
; CHECK-NOT: call {{.*}}async_work_group_copy
; CHECK: }
