; iss-context: a private array that SROA cannot split (indexed by data)
; gets one copy per work-item, [8*4 x [4 x i32]] aligned to 64, and every
; use addresses the copy of the calling work-item through the linear local
; id (y * 8 + x), so that no private address lives across the barrier. With
; a single work-item the array stays as it is.
;
; Private storage past the stack budget (2 MiB per work group) moves to the
; work group's scratch memory, largest slots first: @big's 8 KiB array in
; groups of 1024 (8 MiB of copies) is addressed from @_iss_scratch at each
; use, while its small array stays on the stack; !iss.context's last
; number is the scratch bytes. A 16 MiB array moves even for a single
; work-item (it would overflow the worker's 16 MiB stack), and iss-wi-loops
; reads the scratch base from the context's eighth field.
;
; __kernel void k(__global int *a) {
;   int t[4];
;   size_t l = get_local_id(0);
;   t[a[l] & 3] = 1;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   a[l] = t[a[l + 1] & 3];
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=8,4,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=1,1,1 -S %s | FileCheck %s --check-prefix=ONE
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=big -iss-local-size=1024,1,1 -S %s | FileCheck %s --check-prefix=BIG
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=big -iss-local-size=16,1,1 -S %s | FileCheck %s --check-prefix=SMALL
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=huge -iss-local-size=1,1,1 -S %s | FileCheck %s --check-prefix=HUGE
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=huge -iss-local-size=1,1,1 -S %s | FileCheck %s --check-prefix=WG

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a) {
entry:
  %t = alloca [4 x i32], align 4
  %l = load i64, ptr @_local_id_x
  %pa = getelementptr inbounds i32, ptr %a, i64 %l
  %x = load i32, ptr %pa
  %xi = and i32 %x, 3
  %xx = zext i32 %xi to i64
  %tp = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %xx
  store i32 1, ptr %tp
  call void @pocl.barrier()
  %l1 = add i64 %l, 1
  %pa1 = getelementptr inbounds i32, ptr %a, i64 %l1
  %y = load i32, ptr %pa1
  %yi = and i32 %y, 3
  %yx = zext i32 %yi to i64
  %tq = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %yx
  %v = load i32, ptr %tq
  store i32 %v, ptr %pa
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %t.wi = alloca [32 x [4 x i32]], align 64
; CHECK-NOT: alloca
; CHECK: br label
; CHECK: %[[Y:.*]] = load i64, ptr @_local_id_y
; CHECK-NEXT: %[[X:.*]] = load i64, ptr @_local_id_x
; CHECK: %[[ROW:.*]] = mul nuw nsw i64 %[[Y]], 8
; CHECK-NEXT: %[[LIN:.*]] = add nuw nsw i64 %[[ROW]], %[[X]]
; CHECK-NEXT: %[[MINE:.*]] = getelementptr inbounds [32 x [4 x i32]], ptr %t.wi, i64 0, i64 %[[LIN]]
; CHECK-NEXT: %tp = getelementptr inbounds [4 x i32], ptr %[[MINE]], i64 0, i64 %xx
; CHECK-NEXT: store i32 1, ptr %tp
; CHECK: call void @pocl.barrier()
; The use after the barrier computes its own address.
; CHECK: %[[Y2:.*]] = load i64, ptr @_local_id_y
; CHECK-NEXT: %[[X2:.*]] = load i64, ptr @_local_id_x
; CHECK: %[[ROW2:.*]] = mul nuw nsw i64 %[[Y2]], 8
; CHECK-NEXT: %[[LIN2:.*]] = add nuw nsw i64 %[[ROW2]], %[[X2]]
; CHECK-NEXT: %[[MINE2:.*]] = getelementptr inbounds [32 x [4 x i32]], ptr %t.wi, i64 0, i64 %[[LIN2]]
; CHECK-NEXT: %tq = getelementptr inbounds [4 x i32], ptr %[[MINE2]], i64 0, i64 %yx
; The address is no context value.
; CHECK: !{!"k", i64 0, i64 0, i64 0}

; ONE-LABEL: define void @k(
; ONE-NEXT: entry:
; ONE-NEXT: %t = alloca [4 x i32], align 4
; ONE-NOT: .wi
; ONE: %tq = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %yx

define spir_kernel void @big(ptr %a) {
entry:
  %p = alloca [2048 x i32], align 4
  %q = alloca [4 x i32], align 4
  %l = load i64, ptr @_local_id_x
  %pa = getelementptr inbounds i32, ptr %a, i64 %l
  %x = load i32, ptr %pa
  %xx = zext i32 %x to i64
  %pp = getelementptr inbounds [2048 x i32], ptr %p, i64 0, i64 %xx
  store i32 1, ptr %pp
  %xq = and i64 %xx, 3
  %qp = getelementptr inbounds [4 x i32], ptr %q, i64 0, i64 %xq
  store i32 2, ptr %qp
  call void @pocl.barrier()
  %pp2 = getelementptr inbounds [2048 x i32], ptr %p, i64 0, i64 %l
  %v = load i32, ptr %pp2
  %ql = and i64 %l, 3
  %qp2 = getelementptr inbounds [4 x i32], ptr %q, i64 0, i64 %ql
  %w = load i32, ptr %qp2
  %s = add i32 %v, %w
  store i32 %s, ptr %pa
  ret void
}

; BIG-LABEL: define void @big(
; BIG-NEXT: entry:
; BIG-NEXT: %q.wi = alloca [1024 x [4 x i32]], align 64
; BIG-NOT: alloca
; BIG: %scratch = load ptr, ptr @_iss_scratch
; BIG-NEXT: %p.wi.scratch = getelementptr inbounds i8, ptr %scratch, i64 0
; BIG-NEXT: %[[MINE:.*]] = getelementptr inbounds [1024 x [2048 x i32]], ptr %p.wi.scratch, i64 0, i64 %local_id
; BIG-NEXT: %pp = getelementptr inbounds [2048 x i32], ptr %[[MINE]]
; BIG: call void @pocl.barrier()
; BIG: load ptr, ptr @_iss_scratch
; BIG: !{!"big", i64 {{[0-9]+}}, i64 0, i64 8388608}

; SMALL-LABEL: define void @big(
; SMALL-NEXT: entry:
; SMALL-DAG: %p.wi = alloca [16 x [2048 x i32]], align 64
; SMALL-DAG: %q.wi = alloca [16 x [4 x i32]], align 64
; SMALL-NOT: _iss_scratch
; SMALL: !{!"big", i64 {{[0-9]+}}, i64 0, i64 0}

define spir_kernel void @huge(ptr %a, i32 %n) {
entry:
  %p = alloca [4194304 x i32], align 4
  %nx = zext i32 %n to i64
  %pp = getelementptr inbounds [4194304 x i32], ptr %p, i64 0, i64 %nx
  store i32 %n, ptr %pp
  %v = load i32, ptr %pp
  store i32 %v, ptr %a
  ret void
}

; HUGE-LABEL: define void @huge(
; HUGE-NOT: alloca
; HUGE: %scratch = load ptr, ptr @_iss_scratch
; HUGE-NEXT: %p.scratch = getelementptr inbounds i8, ptr %scratch, i64 0
; HUGE: !{!"huge", i64 0, i64 0, i64 16777216}

; WG-LABEL: define void @__iss_sub_huge_0(ptr noalias %args, ptr noalias %ctx)
; WG: %[[F:.*]] = getelementptr inbounds { [3 x i64], [3 x i64], [3 x i64], i32, i32, ptr, ptr, ptr }, ptr %ctx, i32 0, i32 7
; WG-NEXT: %scratch = load ptr, ptr %[[F]]
; WG-NOT: @_iss_scratch
; WG: getelementptr inbounds i8, ptr %scratch, i64 0
