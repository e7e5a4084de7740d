; iss-split in `split` mode on the paper's Figure 5, A[x] = B[max(5, x)]
; with tiles of 4 in groups of 16: the range [8, 16) is consecutive, and
; its copy reads B at B + 4x, the max gone (the model's affine offset on
; the range); the range [0, 8) keeps the library's max. Negative: an index
; loaded from memory (A[B[x]]) gives nothing to split on.
;
; __kernel void foo(__global float *A, __global float *B) {
;   int x = get_local_id(0);
;   A[x] = B[max(5, x)];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=foo -iss-local-size=16,1,1 -iss-vector-width=4 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=foo -iss-local-size=16,1,1 -iss-vector-width=4 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=gather -iss-local-size=16,1,1 -iss-vector-width=4 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=gather -iss-local-size=16,1,1 -iss-vector-width=4 -iss-mode=split -S | FileCheck %s --check-prefix=GATHER

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define spir_kernel void @foo(ptr %A, ptr %B) {
entry:
  %lid = load i64, ptr @_local_id_x
  %x = trunc i64 %lid to i32
  %m = call spir_func i32 @_Z3maxii(i32 5, i32 %x)
  %mi = sext i32 %m to i64
  %pb = getelementptr inbounds float, ptr %B, i64 %mi
  %v = load float, ptr %pb
  %xi = sext i32 %x to i64
  %pa = getelementptr inbounds float, ptr %A, i64 %xi
  store float %v, ptr %pa
  ret void
}

define spir_kernel void @gather(ptr %A, ptr %B) {
entry:
  %lid = load i64, ptr @_local_id_x
  %pb = getelementptr inbounds i32, ptr %B, i64 %lid
  %b = load i32, ptr %pb
  %bi = sext i32 %b to i64
  %pa = getelementptr inbounds float, ptr %A, i64 %bi
  store float 1.0, ptr %pa
  ret void
}

define spir_func i32 @_Z3maxii(i32 %a, i32 %b) {
  %r = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  ret i32 %r
}

declare i32 @llvm.smax.i32(i32, i32)

; CHECK-LABEL: define void @__iss_sub_foo_0(
; First range, tiles 0 and 1: B[max(5, x)] as it was.
; CHECK: %wi.tile = phi i64 [ 0,
; CHECK: icmp ult i64 %wi.tile.next, 2
; CHECK: %m = call i32 @_Z3maxii(i32 5, i32 %x)
; CHECK: %pb = getelementptr inbounds float, ptr %B.val, i64 %mi
; CHECK-NEXT: %v = load float, ptr %pb
; Second range, tiles 2 and 3: B + 4x.
; CHECK: %wi.tile{{[0-9]+}} = phi i64 [ 2,
; CHECK: icmp ult i64 %wi.tile.next{{[0-9]+}}, 4
; CHECK: %[[OFF:[0-9]+]] = mul i64 %local_id_x[[X:[0-9]+]], 4
; CHECK-NEXT: %v.addr = getelementptr inbounds i8, ptr %B.val, i64 %[[OFF]]
; CHECK-NEXT: load float, ptr %v.addr

; GATHER-LABEL: define void @__iss_sub_gather_0(
; GATHER-NOT: wi.tile
; GATHER: ret void
