; iss-loop-barriers on nested loops: a uniform inner loop inside a uniform
; outer loop makes both lock-step (each gets its preheader, header and
; latch barriers); inside an outer loop counted by the local id, neither
; gets any. In scalar mode a kernel with an explicit barrier still gets
; horizontal parallelization.
;
; __kernel void nested_uniform(__global int *a, __global const int *b, int n, int m) {
;   size_t l = get_local_id(0);
;   for (int i = 0; i < n; ++i)
;     for (int j = 0; j < m; ++j) a[l] += b[i * m + j];
; }
; __kernel void nested_divergent(__global int *a, __global const int *b, int m) {
;   size_t l = get_local_id(0);
;   for (size_t i = 0; i < l; ++i)
;     for (int j = 0; j < m; ++j) a[l] += b[i * m + j];
; }
; __kernel void scalar_barrier(__global int *a, __global const int *b, int n) {
;   size_t l = get_local_id(0);
;   a[l] = 0;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   for (int i = 0; i < n; ++i) a[l] += b[i];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=nested_uniform -iss-local-size=8,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=nested_divergent -iss-local-size=8,1,1 -S %s | FileCheck %s --check-prefix=DIV
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers -iss-kernel=scalar_barrier -iss-local-size=8,1,1 -iss-mode=scalar -S %s | FileCheck %s --check-prefix=SCALAR

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @nested_uniform(ptr %a, ptr %b, i32 %n, i32 %m) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  br label %outer

outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %oc = icmp slt i32 %i, %n
  br i1 %oc, label %inner.pre, label %exit

inner.pre:
  %im = mul i32 %i, %m
  br label %inner

inner:
  %j = phi i32 [ 0, %inner.pre ], [ %j.next, %inner.body ]
  %ic = icmp slt i32 %j, %m
  br i1 %ic, label %inner.body, label %outer.latch

inner.body:
  %k = add i32 %im, %j
  %kx = sext i32 %k to i64
  %pb = getelementptr inbounds i32, ptr %b, i64 %kx
  %bv = load i32, ptr %pb
  %v = load i32, ptr %p
  %v1 = add i32 %v, %bv
  store i32 %v1, ptr %p
  %j.next = add i32 %j, 1
  br label %inner

outer.latch:
  %i.next = add i32 %i, 1
  br label %outer

exit:
  ret void
}

define spir_kernel void @nested_divergent(ptr %a, ptr %b, i32 %m) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %oc = icmp ult i64 %i, %l
  br i1 %oc, label %inner.pre, label %exit

inner.pre:
  %i32 = trunc i64 %i to i32
  %im = mul i32 %i32, %m
  br label %inner

inner:
  %j = phi i32 [ 0, %inner.pre ], [ %j.next, %inner.body ]
  %ic = icmp slt i32 %j, %m
  br i1 %ic, label %inner.body, label %outer.latch

inner.body:
  %k = add i32 %im, %j
  %kx = sext i32 %k to i64
  %pb = getelementptr inbounds i32, ptr %b, i64 %kx
  %bv = load i32, ptr %pb
  %v = load i32, ptr %p
  %v1 = add i32 %v, %bv
  store i32 %v1, ptr %p
  %j.next = add i32 %j, 1
  br label %inner

outer.latch:
  %i.next = add i64 %i, 1
  br label %outer

exit:
  ret void
}

define spir_kernel void @scalar_barrier(ptr %a, ptr %b, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %p = getelementptr inbounds i32, ptr %a, i64 %l
  store i32 0, ptr %p
  call void @pocl.barrier()
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

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @nested_uniform(
; CHECK: %p = getelementptr
; CHECK-NEXT: br label %[[OPB:.*]]
; CHECK: [[OPB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: outer:
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: br label %[[OHB:.*]]
; CHECK: [[OHB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: %im = mul i32 %i, %m
; CHECK-NEXT: br label %[[IPB:.*]]
; CHECK: [[IPB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: inner:
; CHECK-NEXT: %j = phi i32
; CHECK-NEXT: br label %[[IHB:.*]]
; CHECK: [[IHB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: %j.next = add i32 %j, 1
; CHECK-NEXT: br label %[[ILB:.*]]
; CHECK: [[ILB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: %i.next = add i32 %i, 1
; CHECK-NEXT: br label %[[OLB:.*]]
; CHECK: [[OLB]]:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: exit:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK-NEXT: ret void

; Only the entry and exit barriers.
; DIV-LABEL: define void @nested_divergent(
; DIV-COUNT-2: call void @pocl.barrier()
; DIV-NEXT: ret void

; The explicit barrier, then the loop's three.
; SCALAR-LABEL: define void @scalar_barrier(
; SCALAR: store i32 0, ptr %p
; SCALAR-NEXT: br label %[[EB:.*]]
; SCALAR: [[EB]]:
; SCALAR-NEXT: call void @pocl.barrier()
; SCALAR: header:
; SCALAR-NEXT: %i = phi i32
; SCALAR-NEXT: br label %[[HB:.*]]
; SCALAR: [[HB]]:
; SCALAR-NEXT: call void @pocl.barrier()
; SCALAR: %i.next = add i32 %i, 1
; SCALAR-NEXT: br label %[[LB:.*]]
; SCALAR: [[LB]]:
; SCALAR-NEXT: call void @pocl.barrier()
