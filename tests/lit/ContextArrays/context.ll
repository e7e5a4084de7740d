; iss-context: values live across a barrier. get_local_id and
; get_global_id are recomputed after the barrier (no slot); a uniform value
; (from an argument and a load at a uniform address) goes to one scalar
; `.uniform` slot; a per-work-item value to a `.ctx` array with one element
; per work-item (8x4x1 = 32), 64-byte aligned, indexed by the linear local
; id; a value used only before the barrier gets no slot. !iss.context
; records 4 bytes per work-item and 4 uniform bytes.
;
; __kernel void k(__global int *a, int n) {
;   size_t l = get_local_id(0);
;   size_t g = get_global_id(0);
;   int u = a[0] * n;             // uniform
;   int d = a[g] * 3;             // per work-item
;   int only = a[l + 1] + 1;      // used before the barrier only
;   a[l + 2] = only;
;   barrier(CLK_GLOBAL_MEM_FENCE);
;   a[g] = d + u + (int)l;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=k -iss-local-size=8,4,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=nobarrier -iss-local-size=8,4,1 -S %s | FileCheck %s --check-prefix=NONE

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_group_id_x = external global i64

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %gid = load i64, ptr @_group_id_x
  %base = mul i64 %gid, 8
  %g = add i64 %base, %l
  %a0 = load i32, ptr %a
  %u = mul i32 %a0, %n
  %pg = getelementptr inbounds i32, ptr %a, i64 %g
  %ag = load i32, ptr %pg
  %d = mul i32 %ag, 3
  %l1 = add i64 %l, 1
  %p1 = getelementptr inbounds i32, ptr %a, i64 %l1
  %a1 = load i32, ptr %p1
  %only = add i32 %a1, 1
  %l2 = add i64 %l, 2
  %p2 = getelementptr inbounds i32, ptr %a, i64 %l2
  store i32 %only, ptr %p2
  call void @pocl.barrier()
  %du = add i32 %d, %u
  %lt = trunc i64 %l to i32
  %s = add i32 %du, %lt
  store i32 %s, ptr %pg
  ret void
}

; The same kernel without the barrier: nothing to save.
define spir_kernel void @nobarrier(ptr %a, i32 %n) {
entry:
  %l = load i64, ptr @_local_id_x
  %a0 = load i32, ptr %a
  %u = mul i32 %a0, %n
  %pl = getelementptr inbounds i32, ptr %a, i64 %l
  %al = load i32, ptr %pl
  %d = mul i32 %al, 3
  %du = add i32 %d, %u
  store i32 %du, ptr %pl
  ret void
}

declare void @pocl.barrier() noduplicate

; CHECK-LABEL: define void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %u.uniform = alloca i32, align 64
; CHECK-NEXT: %d.ctx = alloca [32 x i32], align 64
; CHECK-NEXT: br label
; u is stored once computed, d at the element of the work-item: y * 8 + x.
; CHECK: %u = mul i32 %a0, %n
; CHECK-NEXT: store i32 %u, ptr %u.uniform
; CHECK: %d = mul i32 %ag, 3
; CHECK: %[[Y:.*]] = load i64, ptr @_local_id_y
; CHECK-NEXT: %[[X:.*]] = load i64, ptr @_local_id_x
; CHECK: %[[ROW:.*]] = mul nuw nsw i64 %[[Y]], 8
; CHECK-NEXT: %[[LIN:.*]] = add nuw nsw i64 %[[ROW]], %[[X]]
; CHECK-NEXT: %[[MINE:.*]] = getelementptr inbounds [32 x i32], ptr %d.ctx, i64 0, i64 %[[LIN]]
; CHECK-NEXT: store i32 %d, ptr %[[MINE]]
; CHECK: %only = add i32 %a1, 1
; CHECK-NEXT: %l2 = add i64 %l, 2
; CHECK: call void @pocl.barrier()
; After the barrier: reloads, and the ids recomputed from the globals.
; CHECK: %[[U:.*]] = load i32, ptr %u.uniform
; CHECK: %[[Y2:.*]] = load i64, ptr @_local_id_y
; CHECK-NEXT: %[[X2:.*]] = load i64, ptr @_local_id_x
; CHECK: %[[ROW2:.*]] = mul nuw nsw i64 %[[Y2]], 8
; CHECK-NEXT: %[[LIN2:.*]] = add nuw nsw i64 %[[ROW2]], %[[X2]]
; CHECK-NEXT: %[[MINE2:.*]] = getelementptr inbounds [32 x i32], ptr %d.ctx, i64 0, i64 %[[LIN2]]
; CHECK-NEXT: %[[D:.*]] = load i32, ptr %[[MINE2]]
; CHECK-NEXT: %du = add i32 %[[D]], %[[U]]
; CHECK-NEXT: %[[L:.*]] = load i64, ptr @_local_id_x
; CHECK-NEXT: %lt = trunc i64 %[[L]] to i32
; CHECK: %[[GID:.*]] = load i64, ptr @_group_id_x
; CHECK-NEXT: %[[BASE:.*]] = mul i64 %[[GID]], 8
; CHECK-NEXT: %[[L3:.*]] = load i64, ptr @_local_id_x
; CHECK-NEXT: %[[G:.*]] = add i64 %[[BASE]], %[[L3]]
; CHECK-NEXT: %[[PG:.*]] = getelementptr inbounds i32, ptr %a, i64 %[[G]]
; CHECK-NEXT: store i32 %s, ptr %[[PG]]
; CHECK: call void @pocl.barrier()
; CHECK-NEXT: ret void
; CHECK-NOT: .ctx
; CHECK-NOT: .uniform
; CHECK: !iss.context = !{![[C:[0-9]+]]}
; CHECK: ![[C]] = !{!"k", i64 4, i64 4, i64 0}

; NONE-LABEL: define void @nobarrier(
; NONE-NOT: alloca
; NONE-NOT: .reload
; NONE: ret void
; NONE: ![[C:[0-9]+]] = !{!"nobarrier", i64 0, i64 0, i64 0}
