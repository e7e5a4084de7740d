; print<iss-model> on kernel loops: a loop with an affine, uniform bound is
; bounded exactly and uniform across every range; a loop that leaves on a
; loaded value has an unbounded counter (over-approximated), its exit
; diverges, and the accesses indexed by its counter stay consecutive.
; Horizontal parallelization is off, so that both stay kernel loops.
;
; __kernel void k(__global float *A, __global int *C, int n) {
;   size_t x = get_local_id(0);
;   for (int i = 0; i < n; i++)
;     A[i * 16 + x] += 1;
;   int j = 0;
;   while (C[x + j] > 0)
;     j++;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=k -iss-local-size=16,1,1 -iss-horizontal=false -o /dev/null %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %A, ptr %C, i32 %n) {
entry:
  %x = load i64, ptr @_local_id_x
  br label %for.cond

for.cond:
  %i = phi i32 [ 0, %entry ], [ %i.next, %for.body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %for.body, label %while.cond

for.body:
  %row = mul nsw i32 %i, 16
  %row64 = sext i32 %row to i64
  %idx = add nsw i64 %row64, %x
  %pa = getelementptr inbounds float, ptr %A, i64 %idx
  %va = load float, ptr %pa
  %inc = fadd float %va, 1.0
  store float %inc, ptr %pa
  %i.next = add nsw i32 %i, 1
  br label %for.cond

while.cond:
  %j = phi i32 [ 0, %for.cond ], [ %j.next, %while.body ]
  %j64 = sext i32 %j to i64
  %xj = add nsw i64 %x, %j64
  %pc = getelementptr inbounds i32, ptr %C, i64 %xj
  %vc = load i32, ptr %pc
  %more = icmp sgt i32 %vc, 0
  br i1 %more, label %while.body, label %end

while.body:
  %j.next = add nsw i32 %j, 1
  br label %while.cond

end:
  ret void
}

; CHECK-LABEL: iss-model of @k, local size 16x1x1
; CHECK: loop for.cond (k0): bounded
; CHECK-NEXT: loop while.cond (k0): unbounded
; CHECK: block while.cond (over-approximated): { while_cond[x, y = 0, z = 0, k0] : 0 <= x <= 15 and k0 >= 0 }
; CHECK: block for.body: [n] -> { for_cond[x, y = 0, z = 0, k0] : 0 <= x <= 15 and 0 <= k0 < n }
; CHECK-NEXT: branch for.cond: affine
; CHECK-NEXT: to for.body: [n] -> { for_cond[x, y = 0, z = 0, k0] : 0 <= x <= 15 and 0 <= k0 < n }
; CHECK-NEXT: to while.cond.preheader: [n] -> { for_cond[x, y = 0, z = 0, k0 = n] : n >= 0 and 0 <= x <= 15; for_cond[x, y = 0, z = 0, k0 = 0] : n < 0 and 0 <= x <= 15 }
; CHECK-NEXT: branch while.cond: non-affine
; CHECK-NEXT: load while.cond 4 bytes at %C + { while_cond[x, y, z, k0] -> [(4x + 4k0)] }
; CHECK-NEXT: load for.body 4 bytes at %A + { for_cond[x, y, z, k0] -> [(4x + 64k0)] }
; CHECK-NEXT: store for.body 4 bytes at %A + { for_cond[x, y, z, k0] -> [(4x + 64k0)] }
; CHECK-LABEL: dimension x, width 8:
; CHECK-NEXT: full tiles: { WI[x, y = 0, z = 0] : 0 <= x <= 15 }
; CHECK-NEXT: branch for.cond: not id-dependent
; CHECK-NEXT: branch while.cond: uniform tiles { WI[x, y, z] : false }
; CHECK: ranges of x:
; CHECK-NEXT: [0, 16): piece 0
; CHECK-NEXT: accesses: cons cons cons
; CHECK-NEXT: branch for.cond: uniform across the range
; CHECK-NEXT: branch while.cond: divergent
