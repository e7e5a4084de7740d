; iss-context: liveness through phis (computed per value from its uses).
; %d, computed before the barrier, reaches a phi after it
; through the incoming block %then, which lies after the barrier: it is
; live across the barrier and gets a context array. %x, computed after the
; barrier, feeds the same phi without crossing one: no slot. %only is used
; by a phi before the barrier: no slot either.
;
; __kernel void k(__global int *a) {
;   size_t g = get_global_id(0);
;   int d = a[g] * 3;
;   int only = 0;
;   if (a[g + 1] > 0) { a[0] = 5; only = a[g + 1]; }
;   a[g + 2] = only;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   int x = a[g + 3];
;   int r = x;
;   if (x > 0) { a[1] = 7; r = d; }
;   a[g] = r;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %a) {
entry:
  %g = load i64, ptr @_local_id_x
  %pg = getelementptr inbounds i32, ptr %a, i64 %g
  %ag = load i32, ptr %pg
  %d = mul i32 %ag, 3
  %g1 = add i64 %g, 1
  %p1 = getelementptr inbounds i32, ptr %a, i64 %g1
  %a1 = load i32, ptr %p1
  %pos = icmp sgt i32 %a1, 0
  br i1 %pos, label %keep, label %zero

keep:
  store i32 5, ptr %a
  br label %join1

zero:
  br label %join1

join1:
  %only = phi i32 [ %a1, %keep ], [ 0, %zero ]
  %g2 = add i64 %g, 2
  %p2 = getelementptr inbounds i32, ptr %a, i64 %g2
  store i32 %only, ptr %p2
  call void @pocl.barrier()
  %g3 = add i64 %g, 3
  %p3 = getelementptr inbounds i32, ptr %a, i64 %g3
  %x = load i32, ptr %p3
  %xpos = icmp sgt i32 %x, 0
  br i1 %xpos, label %then, label %join2

then:
  %a1p = getelementptr inbounds i32, ptr %a, i64 1
  store i32 7, ptr %a1p
  br label %join2

join2:
  %r = phi i32 [ %d, %then ], [ %x, %join1 ]
  store i32 %r, ptr %pg
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @k(
; CHECK: %d.ctx = alloca [8 x i32], align 64
; CHECK-NOT: alloca
; CHECK: %d = mul i32 %{{.*}}, 3
; CHECK: %[[SLOT:.*]] = getelementptr inbounds [8 x i32], ptr %d.ctx, i64 0, i64 %{{.*}}
; CHECK-NEXT: store i32 %d, ptr %[[SLOT]]
; CHECK: call void @pocl.barrier()
; CHECK: %d.reload = load i32, ptr %{{.*}}
; CHECK: phi i32 [ %d.reload, %{{.*}} ], [ %x, %{{.*}} ]
; CHECK-NOT: .ctx
; CHECK-NOT: .uniform
; CHECK: !iss.context = !{![[MD:[0-9]+]]}
; CHECK: ![[MD]] = !{!"k", i64 4, i64 0, i64 0}
