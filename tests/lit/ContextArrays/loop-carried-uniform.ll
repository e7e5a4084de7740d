; iss-context: uniform values carried around a barrier loop. A uniform
; value gets one scalar slot only when no parallel region both stores and
; reloads it: work-items run a region one after the other, so a reload in
; the storing region would see what an earlier work-item stored in this
; round. In the tree reduction, the phi of h is stored in the region after
; the latch barrier, which also reloads h for `active = h`: h takes a
; per-work-item slot. `active` and the next half are stored in regions
; that never reload them: one scalar each.
;
; __kernel void tree(__global uint *in, __global uint *out, __local uint *p) {
;   uint t = get_local_id(0);
;   p[t] = in[get_global_id(0)];
;   uint active = get_local_size(0), h = (active + 1) / 2;
;   while (active > 1) {
;     barrier(CLK_LOCAL_MEM_FENCE);
;     if (t + h < active)
;       p[t] += p[t + h];
;     active = h;
;     h = (h + 1) / 2;
;   }
;   if (t == 0)
;     out[get_group_id(0)] = p[0];
; }
;
; A Fibonacci pair (f0, f1) = (f1, f0 + f1) in a barrier loop: f0's phi
; reloads f1 in the region that stores f1's phi, so f1 is per work-item;
; f0 and the sum stay uniform scalars. The counter r, incremented before
; the latch barrier, stays a scalar.
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=tree -iss-local-size=16,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=fib -iss-local-size=16,1,1 -S %s | FileCheck %s --check-prefix=FIB
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context -iss-kernel=counted -iss-local-size=16,1,1 -S %s | FileCheck %s --check-prefix=NONE

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_group_id_x = external global i64

; CHECK-LABEL: define void @tree(
; CHECK-DAG: %h.ctx = alloca [16 x i32], align 64
; CHECK-DAG: %active.uniform = alloca i32, align 64
; CHECK-DAG: %h.next.uniform = alloca i32, align 64
; CHECK-NOT: %h.uniform
; CHECK: header:
; CHECK-NEXT: %active = phi i32 [ 16, %{{.*}} ], [ %h.reload{{[0-9]*}}, %{{.*}} ]
; CHECK-NEXT: %h = phi i32 [ 8, %{{.*}} ], [ %h.next.reload{{[0-9]*}}, %{{.*}} ]
; CHECK: store i32 %h, ptr %h.ctx.mine
; CHECK: store i32 %active, ptr %active.uniform
; CHECK: latch:
; CHECK: store i32 %h.next, ptr %h.next.uniform
; CHECK: latch.barrier:
; CHECK-NEXT: call void @pocl.barrier()
; CHECK: latch.barrier.next:
; CHECK-NEXT: %local_id{{[0-9]*}} = load i64, ptr @_local_id_x
; CHECK-NEXT: %h.ctx.mine{{[0-9]*}} = getelementptr inbounds [16 x i32], ptr %h.ctx, i64 0, i64 %local_id
; CHECK-NEXT: %h.reload{{[0-9]*}} = load i32, ptr %h.ctx.mine
; CHECK: !iss.context = !{![[CTX:[0-9]+]]}
; CHECK: ![[CTX]] = !{!"tree", i64 4, i64 8, i64 0}
define spir_kernel void @tree(ptr %in, ptr %out, ptr addrspace(3) %p) {
entry:
  %l = load i64, ptr @_local_id_x
  %t = trunc i64 %l to i32
  %pi = getelementptr inbounds i32, ptr %in, i64 %l
  %v = load i32, ptr %pi
  %pt = getelementptr inbounds i32, ptr addrspace(3) %p, i64 %l
  store i32 %v, ptr addrspace(3) %pt
  br label %header

header:
  %active = phi i32 [ 16, %entry ], [ %h, %latch ]
  %h = phi i32 [ 8, %entry ], [ %h.next, %latch ]
  %more = icmp ugt i32 %active, 1
  br i1 %more, label %body, label %done

body:
  call void @pocl.barrier()
  %th = add i32 %t, %h
  %in.range = icmp ult i32 %th, %active
  br i1 %in.range, label %add, label %latch

add:
  %thx = zext i32 %th to i64
  %pth = getelementptr inbounds i32, ptr addrspace(3) %p, i64 %thx
  %a = load i32, ptr addrspace(3) %pth
  %b = load i32, ptr addrspace(3) %pt
  %s = add i32 %a, %b
  store i32 %s, ptr addrspace(3) %pt
  br label %latch

latch:
  %h1 = add i32 %h, 1
  %h.next = udiv i32 %h1, 2
  br label %header

done:
  %first = icmp eq i32 %t, 0
  br i1 %first, label %write, label %exit

write:
  %r = load i32, ptr addrspace(3) %p
  %grp = load i64, ptr @_group_id_x
  %po = getelementptr inbounds i32, ptr %out, i64 %grp
  store i32 %r, ptr %po
  br label %exit

exit:
  ret void
}

; FIB-LABEL: define void @fib(
; FIB-DAG: %f1.ctx = alloca [16 x i32], align 64
; FIB-DAG: %f0.uniform = alloca i32, align 64
; FIB-DAG: %f2.uniform = alloca i32, align 64
; FIB-DAG: %r.next.uniform = alloca i32, align 64
; FIB-NOT: %f1.uniform
; FIB: ![[CTX:[0-9]+]] = !{!"fib", i64 4, i64 {{[0-9]+}}, i64 0}
define spir_kernel void @fib(ptr %out, i32 %rounds) {
entry:
  %l = load i64, ptr @_local_id_x
  br label %header

header:
  %r = phi i32 [ 0, %entry ], [ %r.next, %body ]
  %f0 = phi i32 [ 0, %entry ], [ %f1, %body ]
  %f1 = phi i32 [ 1, %entry ], [ %f2, %body ]
  %more = icmp ult i32 %r, %rounds
  br i1 %more, label %body, label %done

body:
  call void @pocl.barrier()
  %f2 = add i32 %f0, %f1
  %r.next = add i32 %r, 1
  br label %header

done:
  %po = getelementptr inbounds i32, ptr %out, i64 %l
  store i32 %f0, ptr %po
  ret void
}

; Negative: a counter that is only incremented keeps a scalar slot; no
; per-work-item context at all.
; NONE-LABEL: define void @counted(
; NONE-NOT: .ctx = alloca
; NONE: %r.uniform = alloca i32
; NONE: ![[CTX:[0-9]+]] = !{!"counted", i64 0, i64 {{[1-9][0-9]*}}, i64 0}
define spir_kernel void @counted(ptr %out, i32 %rounds) {
entry:
  %l = load i64, ptr @_local_id_x
  br label %header

header:
  %r = phi i32 [ 0, %entry ], [ %r.next, %body ]
  %more = icmp ult i32 %r, %rounds
  br i1 %more, label %body, label %done

body:
  call void @pocl.barrier()
  %po = getelementptr inbounds i32, ptr %out, i64 %l
  store i32 %r, ptr %po
  %r.next = add i32 %r, 1
  br label %header

done:
  ret void
}

declare void @pocl.barrier()
