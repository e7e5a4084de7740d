; print<iss-model>, negative cases: what the model cannot see is never split
; on. An index loaded from memory is divergent (A[B[x]]); a branch on a
; value loaded from a per-work-item address diverges wherever two lanes run
; it; a branch on a value loaded from a uniform address is uniform however
; it goes. With no isl operations allowed, nothing is modelled and nothing
; split.
;
; __kernel void k(__global float *A, __global int *B, __global float *C) {
;   int x = get_local_id(0);
;   C[B[x]] = 1;           // non-affine index
;   if (B[x] > 0)          // data-dependent branch
;     C[x] = 2;
;   if (B[0] > 0)          // uniform, not affine
;     C[x + 1] = 3;
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=k -iss-local-size=16,1,1 -o /dev/null %s 2>&1 | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=k -iss-local-size=16,1,1 -iss-model-max-ops=1 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=QUOTA

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @k(ptr %A, ptr %B, ptr %C) {
entry:
  %lid = load i64, ptr @_local_id_x
  %x = trunc i64 %lid to i32
  %xi = sext i32 %x to i64
  %pb = getelementptr inbounds i32, ptr %B, i64 %xi
  %b = load i32, ptr %pb
  %bi = sext i32 %b to i64
  %pc = getelementptr inbounds float, ptr %C, i64 %bi
  store float 1.0, ptr %pc
  %c = icmp sgt i32 %b, 0
  br i1 %c, label %then, label %next

then:
  %pcx = getelementptr inbounds float, ptr %C, i64 %xi
  store float 2.0, ptr %pcx
  br label %next

next:
  %b0 = load i32, ptr %B
  %c0 = icmp sgt i32 %b0, 0
  br i1 %c0, label %then2, label %end

then2:
  %x1 = add nsw i32 %x, 1
  %x1i = sext i32 %x1 to i64
  %pcx1 = getelementptr inbounds float, ptr %C, i64 %x1i
  store float 3.0, ptr %pcx1
  br label %end

end:
  ret void
}

; CHECK-LABEL: iss-model of @k, local size 16x1x1
; The loaded index and the data-dependent guard are over-approximated.
; CHECK: block then (over-approximated): { WI[x, y = 0, z = 0] : 0 <= x <= 15 }
; The uniform load is an opaque parameter: the branch on it is affine.
; CHECK: block then2 (over-approximated): [u_b0] -> { WI[x, y = 0, z = 0] : u_b0 > 0 and 0 <= x <= 15 }
; CHECK-NEXT: branch kernel.body: non-affine
; CHECK-NEXT: branch next: affine
; CHECK: load kernel.body 4 bytes at %B + { WI[x, y, z] -> [(4x)] }
; CHECK-NEXT: store kernel.body 4 bytes: non-affine
; CHECK-NEXT: store then 4 bytes at %C + { WI[x, y, z] -> [(4x)] }
; CHECK-NEXT: load next 4 bytes at %B + { WI[x, y, z] -> [(0)] }
; CHECK-NEXT: store then2 4 bytes at %C + { WI[x, y, z] -> [(4 + 4x)] }
; CHECK-LABEL: dimension x, width 8:
; A full tile has two lanes: the data-dependent branch may diverge on any.
; CHECK-NEXT: full tiles: { WI[x, y = 0, z = 0] : 0 <= x <= 15 }
; CHECK-NEXT: branch kernel.body: uniform tiles { WI[x, y, z] : false }
; CHECK-NEXT: branch next: not id-dependent
; CHECK: store kernel.body #1: non-affine
; CHECK: pieces:
; CHECK-NEXT: 0 (full, consecutive, divergent control): { WI[x, y = 0, z = 0] : 0 <= x <= 15 }
; CHECK-NEXT: ranges of x:
; CHECK-NEXT: [0, 16): piece 0
; CHECK-NEXT: accesses: cons div cons uni cons
; CHECK-NEXT: branch kernel.body: divergent
; CHECK-NEXT: branch next: uniform across the range

; QUOTA: region entry.barrier: not modelled (isl ran out of quota)
; QUOTA: region entry.barrier, dimension x, width 8:
; QUOTA-NEXT: no split: the region is not modelled: isl ran out of quota
