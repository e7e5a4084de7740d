; print<iss-uniformity> after iss-prepare and iss-barriers.
;
; __kernel void k(__global int *a, int n) {
;   size_t lx = get_local_id(0), ly = get_local_id(1);
;   int t[4];                       // private: divergent
;   t[a[lx] & 3] = 1;
;   int u = a[0];                   // uniform address: uniform
;   int d = a[lx];                  // divergent
;   int x;
;   if (lx > 2) { a[1] = 5; x = u + 1; } else { a[2] = 6; x = u + 2; }
;   // x: a phi after a divergent branch, divergent
;   int s = 0;
;   for (int i = 0; i < n; ++i) s += u;       // uniform loop, s uniform
;   int r = 0;
;   for (size_t j = 0; j < lx; ++j) r += u;   // divergent loop; r divergent
;   if (d > 0)                                 // divergent guard
;     for (int i = 0; i < n; ++i) a[i] += 1;   // divergent loop
;   a[get_group_id(0) + ly] = s + r + x + t[1];
; }
;
; With a local size of 8x1x1 the x id is divergent and the y id uniform;
; with 1x8x1 the other way round, and no block or loop is divergent.
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,function(print<iss-uniformity>)' -iss-kernel=k -iss-local-size=8,1,1 -o /dev/null %s 2>&1 | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,function(print<iss-uniformity>)' -iss-kernel=k -iss-local-size=1,8,1 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=Y --implicit-check-not=': divergent'

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_group_id_x = external global i64

define spir_kernel void @k(ptr %a, i32 %n) {
entry:
  %t = alloca [4 x i32], align 4
  %lx = load i64, ptr @_local_id_x
  %ly = load i64, ptr @_local_id_y
  %pd = getelementptr inbounds i32, ptr %a, i64 %lx
  %d = load i32, ptr %pd
  %ti = and i32 %d, 3
  %tix = zext i32 %ti to i64
  %tp = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 %tix
  store i32 1, ptr %tp
  %u = load i32, ptr %a
  %c = icmp ugt i64 %lx, 2
  br i1 %c, label %then, label %else

then:
  %p1 = getelementptr inbounds i32, ptr %a, i64 1
  store i32 5, ptr %p1
  %x1 = add i32 %u, 1
  br label %join

else:
  %p2 = getelementptr inbounds i32, ptr %a, i64 2
  store i32 6, ptr %p2
  %x2 = add i32 %u, 2
  br label %join

join:
  %x = phi i32 [ %x1, %then ], [ %x2, %else ]
  br label %uloop

uloop:
  %i = phi i32 [ 0, %join ], [ %i.next, %uloop ]
  %s = phi i32 [ 0, %join ], [ %s.next, %uloop ]
  %s.next = add i32 %s, %u
  %i.next = add i32 %i, 1
  %uc = icmp slt i32 %i.next, %n
  br i1 %uc, label %uloop, label %dpre

dpre:
  br label %dloop

dloop:
  %j = phi i64 [ 0, %dpre ], [ %j.next, %dloop ]
  %r = phi i32 [ 0, %dpre ], [ %r.next, %dloop ]
  %r.next = add i32 %r, %u
  %j.next = add i64 %j, 1
  %dc = icmp ult i64 %j.next, %lx
  br i1 %dc, label %dloop, label %guard

guard:
  %gc = icmp sgt i32 %d, 0
  br i1 %gc, label %gloop, label %end

gloop:
  %k = phi i32 [ 0, %guard ], [ %k.next, %gloop ]
  %kx = sext i32 %k to i64
  %pk = getelementptr inbounds i32, ptr %a, i64 %kx
  %vk = load i32, ptr %pk
  %vk1 = add i32 %vk, 1
  store i32 %vk1, ptr %pk
  %k.next = add i32 %k, 1
  %kc = icmp slt i32 %k.next, %n
  br i1 %kc, label %gloop, label %end

end:
  %gid = load i64, ptr @_group_id_x
  %o = add i64 %gid, %ly
  %po = getelementptr inbounds i32, ptr %a, i64 %o
  %sr = add i32 %s.next, %r.next
  %srx = add i32 %sr, %x
  %tp1 = getelementptr inbounds [4 x i32], ptr %t, i64 0, i64 1
  %t1 = load i32, ptr %tp1
  %all = add i32 %srx, %t1
  store i32 %all, ptr %po
  ret void
}

; CHECK-LABEL: Work-item uniformity of 'k':
; CHECK: block %entry: uniform
; CHECK-NEXT: divergent: %t = alloca [4 x i32]
; CHECK: block %kernel.body: uniform
; CHECK-NEXT: divergent: %lx = load i64, ptr @_local_id_x
; CHECK-NEXT: uniform: %ly = load i64, ptr @_local_id_y
; CHECK-NEXT: divergent: %pd = getelementptr
; CHECK-NEXT: divergent: %d = load i32, ptr %pd
; CHECK: divergent: %tp = getelementptr inbounds [4 x i32], ptr %t
; CHECK-NEXT: uniform: %u = load i32, ptr %a
; CHECK-NEXT: divergent: %c = icmp ugt i64 %lx, 2
; The arms of the divergent branch are divergent blocks, though what they
; compute from uniform values is uniform; the phi at the join is not.
; CHECK-NEXT: block %then: divergent
; CHECK: uniform: %x1 = add i32 %u, 1
; CHECK-NEXT: block %else: divergent
; CHECK: uniform: %x2 = add i32 %u, 2
; CHECK-NEXT: block %join: uniform
; CHECK-NEXT: divergent: %x = phi i32
; CHECK-NEXT: block %uloop: uniform
; CHECK-NEXT: uniform: %i = phi i32
; CHECK-NEXT: uniform: %s = phi i32
; CHECK-NEXT: uniform: %s.next = add i32 %s, %u
; CHECK-NEXT: uniform: %i.next = add i32 %i, 1
; CHECK-NEXT: uniform: %uc = icmp slt i32 %i.next, %n
; The loop counted by the local id: its values differ after it.
; CHECK: block %dloop: divergent
; CHECK-NEXT: divergent: %j = phi i64
; CHECK-NEXT: divergent: %r = phi i32
; CHECK-NEXT: divergent: %r.next = add i32 %r, %u
; CHECK-NEXT: divergent: %j.next = add i64 %j, 1
; CHECK-NEXT: divergent: %dc = icmp ult i64 %j.next, %lx
; CHECK-NEXT: block %guard: uniform
; CHECK-NEXT: divergent: %gc = icmp sgt i32 %d, 0
; The loop under the divergent guard: its trip count is uniform, but only
; some work-items enter it.
; CHECK-NEXT: block %gloop.preheader: divergent
; CHECK-NEXT: block %gloop: divergent
; CHECK: block %end: uniform
; CHECK-NEXT: uniform: %gid = load i64, ptr @_group_id_x
; CHECK-NEXT: uniform: %o = add i64 %gid, %ly
; CHECK-NEXT: uniform: %po = getelementptr
; CHECK-NEXT: divergent: %sr = add i32 %s.next, %r.next
; CHECK-NEXT: divergent: %srx = add i32 %sr, %x
; CHECK-NEXT: divergent: %tp1 = getelementptr inbounds [4 x i32], ptr %t
; CHECK: loop %uloop: uniform
; CHECK-NEXT: loop %dloop: divergent
; CHECK-NEXT: loop %gloop: divergent

; Y-LABEL: Work-item uniformity of 'k':
; Y: divergent: %t = alloca [4 x i32]
; Y: uniform: %lx = load i64, ptr @_local_id_x
; Y-NEXT: divergent: %ly = load i64, ptr @_local_id_y
; Y: uniform: %d = load i32, ptr %pd
; Y: uniform: %c = icmp ugt i64 %lx, 2
; Y-NEXT: block %then: uniform
; Y: uniform: %x = phi i32
; Y: block %dloop: uniform
; Y: uniform: %r.next = add i32 %r, %u
; Y: divergent: %o = add i64 %gid, %ly
; Y: uniform: %sr = add i32 %s.next, %r.next
; Y-NEXT: uniform: %srx = add i32 %sr, %x
; Y: loop %uloop: uniform
; Y-NEXT: loop %dloop: uniform
; Y-NEXT: loop %gloop: uniform
