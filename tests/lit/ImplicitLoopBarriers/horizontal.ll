; iss-loop-barriers, horizontal inner-loop parallelization (the pocl paper,
; section 4.6): an innermost loop without barriers that every work-item
; iterates as often as the others gets the b-loop barriers in vec mode, so
; that the work-item loop moves inside it. Not with -iss-horizontal=false,
; not in scalar mode for a kernel without explicit barriers, not when the
; trip count depends on the local id, not under a divergent guard.
;
; __kernel void uniform(__global int *a, __global const int *b, int n) {
;   size_t l = get_local_id(0);
;   for (int i = 0; i < n; ++i) a[l] += b[i];
; }
; __kernel void lidtrip(__global int *a, __global const int *b) {
;   size_t l = get_local_id(0);
;   for (size_t i = 0; i < l; ++i) a[l] += b[i];
; }
; __kernel void guarded(__global int *a, __global const int *b, int n) {
;   size_t l = get_local_id(0);
;   if (a[l] > 0)
;     for (int i = 0; i < n; ++i) a[l] += b[i];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=uniform -iss-local-size=8,1,1 -iss-mode=vec -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=uniform -iss-local-size=8,1,1 -iss-mode=vec -iss-horizontal=false -S %s | FileCheck %s --check-prefix=NONE -DK=uniform
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=uniform -iss-local-size=8,1,1 -iss-mode=scalar -S %s | FileCheck %s --check-prefix=NONE -DK=uniform
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=lidtrip -iss-local-size=8,1,1 -iss-mode=vec -S %s | FileCheck %s --check-prefix=NONE -DK=lidtrip
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=guarded -iss-local-size=8,1,1 -iss-mode=vec -S %s | FileCheck %s --check-prefix=NONE -DK=guarded
; The same loop counted by the y id is uniform when the local size in y is 1.
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=lidtrip_y -iss-local-size=8,1,1 -iss-mode=vec -S %s | FileCheck %s --check-prefix=YONE
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=lidtrip_y -iss-local-size=8,2,1 -iss-mode=vec -S %s | FileCheck %s --check-prefix=NONE -DK=lidtrip_y

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64

define spir_kernel void @uniform(ptr %a, ptr %b, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  br label %header

header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit

body:
  %ix = sext i32 %i to i64
  %pb = getelementptr inbounds i32, ptr %b, i64 %ix
  %bv = load i32, ptr %pb
  %v = load i32, ptr %p
  %v1 = add i32 %v, %bv
  store i32 %v1, ptr %p
  %i.next = add i32 %i, 1
  br label %header

exit:
  ret void
}

define spir_kernel void @lidtrip(ptr %a, ptr %b) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  br label %header

header:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp ult i64 %i, %l
  br i1 %c, label %body, label %exit

body:
  %pb = getelementptr inbounds i32, ptr %b, i64 %i
  %bv = load i32, ptr %pb
  %v = load i32, ptr %p
  %v1 = add i32 %v, %bv
  store i32 %v1, ptr %p
  %i.next = add i64 %i, 1
  br label %header

exit:
  ret void
}

define spir_kernel void @lidtrip_y(ptr %a, ptr %b) {
entry:
  %lx = load i64, ptr @_local_id_x
  %l = load i64, ptr @_local_id_y
  %p = getelementptr inbounds i32, ptr %a, i64 %lx
  br label %header

header:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp ult i64 %i, %l
  br i1 %c, label %body, label %exit

body:
  %pb = getelementptr inbounds i32, ptr %b, i64 %i
  %bv = load i32, ptr %pb
  %v = load i32, ptr %p
  %v1 = add i32 %v, %bv
  store i32 %v1, ptr %p
  %i.next = add i64 %i, 1
  br label %header

exit:
  ret void
}

define spir_kernel void @guarded(ptr %a, ptr %b, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  %a0 = load i32, ptr %p
  %g = icmp sgt i32 %a0, 0
  br i1 %g, label %header, label %exit

header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit

body:
  %ix = sext i32 %i to i64
  %pb = getelementptr inbounds i32, ptr %b, i64 %ix
  %bv = load i32, ptr %pb
  %v = load i32, ptr %p
  %v1 = add i32 %v, %bv
  store i32 %v1, ptr %p
  %i.next = add i32 %i, 1
  br label %header

exit:
  ret void
}

; The preheader, the header and the latch each get their barrier.
; CHECK-LABEL: define void @uniform(
; CHECK: call void @pocl.barrier()
; CHECK: %p = getelementptr
; CHECK-NEXT: br label %[[PB:.*]]
; CHECK: [[PB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: header:
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: br label %[[HB:.*]]
; CHECK: [[HB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: %i.next = add i32 %i, 1
; CHECK-NEXT: br label %[[LB:.*]]
; CHECK: [[LB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: br label %{{.*}}
; CHECK: exit:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: ret void

; YONE-LABEL: define void @lidtrip_y(
; YONE: header:
; YONE-NEXT: %i = phi i64
; YONE-NEXT: br label %[[HB:.*]]
; YONE: [[HB]]:
; YONE-NEXT: call void @pocl.barrier()

; Only the entry and exit barriers.
; NONE: define void @[[K]](
; NONE-COUNT-2: call void @pocl.barrier()
; NONE-NEXT: ret void
