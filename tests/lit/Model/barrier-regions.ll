; print<iss-model> on a kernel with a barrier: two parallel regions, each
; modelled on its own. After the barrier, the shift s loaded before it
; comes from its uniform context slot (iss-context): an opaque parameter,
; so A[g + s] is consecutive whatever s is; the local array is read
; backwards (divergent) and, from a __local base, forwards (consecutive).
;
; __kernel void k(__global float *A, __local float *tmp) {
;   size_t l = get_local_id(0), g = get_global_id(0);
;   int s = (int)A[0];
;   tmp[l] = A[g];
;   barrier(CLK_LOCAL_MEM_FENCE);
;   A[g + s] = tmp[15 - l] + tmp[l];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=k -iss-local-size=16,1,1 -o /dev/null %s 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64

define spir_kernel void @k(ptr %A, ptr addrspace(3) %tmp) {
entry:
  %l = load i64, ptr @_local_id_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %gid, %ls
  %g = add i64 %base, %l
  %a0 = load float, ptr %A
  %s = fptosi float %a0 to i32
  %pg = getelementptr inbounds float, ptr %A, i64 %g
  %ag = load float, ptr %pg
  %pt = getelementptr inbounds float, ptr addrspace(3) %tmp, i64 %l
  store float %ag, ptr addrspace(3) %pt
  call void @pocl.barrier()
  %r = sub i64 15, %l
  %pr = getelementptr inbounds float, ptr addrspace(3) %tmp, i64 %r
  %vr = load float, ptr addrspace(3) %pr
  %vl = load float, ptr addrspace(3) %pt
  %sum = fadd float %vr, %vl
  %s64 = sext i32 %s to i64
  %gs = add i64 %g, %s64
  %pgs = getelementptr inbounds float, ptr %A, i64 %gs
  store float %sum, ptr %pgs
  ret void
}

declare void @pocl.barrier()

; CHECK-LABEL: iss-model of @k, local size 16x1x1
; Without a global offset the global id is 16 G_x + x, in 64 bits: as an
; index, modulo 2^64 like the address, so nothing needs assuming.
; CHECK-NEXT: assumed: {  :  }
; CHECK-NEXT: region entry.barrier: 2 blocks, 0 loops, 0 branches, 4 accesses
; CHECK: load kernel.body 4 bytes at %A + { WI[x, y, z] -> [(0)] }
; CHECK-NEXT: store kernel.body 4 bytes at %s.uniform + { WI[x, y, z] -> [(0)] }
; CHECK-NEXT: load kernel.body 4 bytes at %A + [G_x] -> { WI[x, y, z] -> [(64G_x + 4x)] }
; CHECK-NEXT: store kernel.body 4 bytes at %tmp + { WI[x, y, z] -> [(4x)] }
; The second region reads s back from its slot.
; CHECK-NEXT: region kernel.body.barrier1: 1 blocks, 0 loops, 0 branches, 4 accesses
; CHECK: load kernel.body.barrier1.next 4 bytes at %tmp + { WI[x, y, z] -> [(60 - 4x)] }
; CHECK-NEXT: load kernel.body.barrier1.next 4 bytes at %tmp + { WI[x, y, z] -> [(4x)] }
; CHECK-NEXT: load kernel.body.barrier1.next 4 bytes at %s.uniform + { WI[x, y, z] -> [(0)] }
; CHECK-NEXT: store kernel.body.barrier1.next 4 bytes at %A + [G_x, u_s_reload] -> { WI[x, y, z] -> [(64G_x + 4u_s_reload + 4x)] }
; CHECK-LABEL: region entry.barrier, dimension x, width 8:
; CHECK: ranges of x:
; CHECK-NEXT: [0, 16): piece 0
; CHECK-NEXT: accesses: uni uni cons cons
; CHECK-LABEL: region kernel.body.barrier1, dimension x, width 8:
; CHECK: ranges of x:
; CHECK-NEXT: [0, 16): piece 0
; CHECK-NEXT: accesses: div cons uni cons
