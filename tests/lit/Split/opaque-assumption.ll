; A row index in 32-bit unsigned arithmetic, as the AMD APP SDK writes it:
; c = x + y * width. The product is not affine: it is an opaque parameter
; u_yw, the same along x. The additions without nsw and the zext are
; exact only where they do not wrap, which depends on u_yw: the model
; assumes it of the value each work-item has (an assumption per
; work-item), and as y * width is computed from the local ids and
; work-group values alone, iss-split checks it once per work group,
; after the entry: a loop over the group's rows (x does not change it)
; recomputes y * width and tests the assumption, kept from LLVM's full
; unroller for the vectorizer's and-reduction. Where a row fails, the
; group runs the unsplit loops. The split's addresses come from the model, as byte offsets from
; the buffers: consecutive along x for the loop vectorizer, which cannot
; see through the zext of the IR's. `vec` does not split.
;
; __kernel void rows(__global float *out, __global const float *in) {
;   uint x = get_global_id(0), y = get_global_id(1);
;   uint width = get_global_size(0), c = x + y * width;
;   out[c] = in[c - width] + in[c];
; }
;
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,function(print<iss-model>)' -iss-kernel=rows -iss-local-size=16,4,1 -iss-vector-width=8 -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=MODEL
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context' -iss-kernel=rows -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split -S %s | pocl-iss-opt -passes='iss-split' -iss-kernel=rows -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=split -S | FileCheck %s
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops' -iss-kernel=rows -iss-local-size=16,4,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s --check-prefix=VEC

; MODEL: assumed per work-item: [O_x, N_x, u_yw] -> {  : -O_x + 16N_x <= u_yw <= 2147483632 - O_x }
; MODEL: load kernel.body 4 bytes at %in + [O_x, N_x, u_yw] -> { WI[x, y, z] -> [(4O_x - 64N_x + 4u_yw + 4x)] }
; MODEL: load kernel.body 4 bytes at %in + [O_x, u_yw] -> { WI[x, y, z] -> [(4O_x + 4u_yw + 4x)] }
; MODEL: store kernel.body 4 bytes at %out + [O_x, u_yw] -> { WI[x, y, z] -> [(4O_x + 4u_yw + 4x)] }

; Once per work group, after the entry: the group's own assumptions, then
; the loop over its four rows; the regions branch on the result.
; CHECK-LABEL: define void @__iss_sub_rows_0(
; CHECK: br label %iss.assume
; CHECK: iss.assume:
; CHECK: br label %iss.assume.loop
; CHECK: region0:
; CHECK-NEXT: br i1 %iss.assumed, label %region0.split, label %codeRepl
; CHECK: codeRepl:
; CHECK-NEXT: call void @__iss_sub_rows_0.region0.plain(
; CHECK: wi.x.tiles.header:
; CHECK: %vup.addr = getelementptr inbounds i8, ptr %in.val,
; CHECK: %vc.addr = getelementptr inbounds i8, ptr %in.val,
; CHECK: iss.assume.loop:
; CHECK-NEXT: %iss.assume.wi = phi i64 [ 0, %iss.assume ], [ [[NEXT:%.*]], %iss.assume.loop ]
; CHECK-NEXT: %iss.assume.all = phi i1 [ true, %iss.assume ], [ [[ALL:%.*]], %iss.assume.loop ]
; CHECK: [[ROW:%.*]] = urem i64 {{%.*}}, 4
; CHECK: %gy = add i64 %g0y, [[ROW]]
; CHECK: %yw = mul i32 %y, %width
; CHECK: [[ALL]] = and i1 %iss.assume.all,
; CHECK: [[NEXT]] = add nuw nsw i64 %iss.assume.wi, 1
; CHECK: br i1 {{%.*}}, label %iss.assume.loop, label %iss.assume.done, !llvm.loop [[ASSUMELOOP:![0-9]+]]
; CHECK: iss.assume.done:
; CHECK-NEXT: %iss.assumed = and i1 {{%.*}}, [[ALL]]
; CHECK-NEXT: br label %region0

; VEC-NOT: iss.assume

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_group_id_x = external global i64
@_group_id_y = external global i64
@_global_offset_x = external global i64
@_global_offset_y = external global i64
@_num_groups_x = external global i64

define spir_kernel void @rows(ptr %out, ptr %in) {
entry:
  %offx = load i64, ptr @_global_offset_x
  %gidx = load i64, ptr @_group_id_x
  %basex = mul i64 16, %gidx
  %g0x = add i64 %offx, %basex
  %lidx = load i64, ptr @_local_id_x
  %gx = add i64 %g0x, %lidx
  %x = trunc i64 %gx to i32
  %offy = load i64, ptr @_global_offset_y
  %gidy = load i64, ptr @_group_id_y
  %basey = mul i64 4, %gidy
  %g0y = add i64 %offy, %basey
  %lidy = load i64, ptr @_local_id_y
  %gy = add i64 %g0y, %lidy
  %y = trunc i64 %gy to i32
  %ng = load i64, ptr @_num_groups_x
  %gsx = mul i64 %ng, 16
  %width = trunc i64 %gsx to i32
  %yw = mul i32 %y, %width
  %c = add i32 %x, %yw
  %up = sub i32 %c, %width
  %iup = zext i32 %up to i64
  %pup = getelementptr inbounds float, ptr %in, i64 %iup
  %vup = load float, ptr %pup
  %ic = zext i32 %c to i64
  %pc = getelementptr inbounds float, ptr %in, i64 %ic
  %vc = load float, ptr %pc
  %s = fadd float %vup, %vc
  %po = getelementptr inbounds float, ptr %out, i64 %ic
  store float %s, ptr %po
  ret void
}
; CHECK-DAG: [[ASSUMELOOP]] = distinct !{[[ASSUMELOOP]], [[NOUNROLL:![0-9]+]], [[FV:![0-9]+]], [[FE:![0-9]+]]}
; CHECK-DAG: [[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: [[FV]] = !{!"llvm.loop.vectorize.followup_vectorized", [[ISVEC:![0-9]+]]}
; CHECK-DAG: [[FE]] = !{!"llvm.loop.vectorize.followup_epilogue", [[ISVEC]], [[NORUNTIME:![0-9]+]]}
; CHECK-DAG: [[ISVEC]] = !{!"llvm.loop.isvectorized"}
; CHECK-DAG: [[NORUNTIME]] = !{!"llvm.loop.unroll.runtime.disable"}
