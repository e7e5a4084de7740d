; -passes=iss-workgroup: the compile's work-group pipeline, built from
; PassRegistry.def's module passes in their order (workGroupPipeline), with
; the iss-* options as the compile's settings. It runs the same sequence as
; the passes named one by one, with iss-safe-division only where division
; is guarded (-iss-safe-division, POCL_ISS_SAFE_DIVISION); iss-context
; and the pass that builds the work-group function (iss-wi-loops, or
; iss-split in the split modes) in the pipeline, or, in the scoring modes,
; iss-subkernels with that builder, which runs iss-context and it once per
; subkernel; then the passes that ready the subkernels for O3
; (iss-scalarize not in `scalar` mode). The results are the same IR.
;
; __kernel void q(__global int *out, __global const int *a, int d) {
;   size_t x = get_global_id(0);
;   out[x] = a[x] / d;
; }
;
; RUN: pocl-iss-opt -passes=iss-workgroup -iss-kernel=q -iss-local-size=16 -iss-mode=split+score -iss-vector-width=8 -S %s -o %t.named
; RUN: pocl-iss-opt -passes='iss-prepare,iss-safe-division,iss-barriers,iss-as-written,iss-loop-barriers,iss-cond-barriers,iss-subkernels(iss-split),iss-hoist-uniform,iss-codegen-attrs,iss-scalarize,iss-switch-tables' -iss-kernel=q -iss-local-size=16 -iss-mode=split+score -iss-vector-width=8 -S %s -o %t.listed
; RUN: diff %t.named %t.listed
; RUN: FileCheck %s < %t.named
; RUN: pocl-iss-opt -passes=iss-workgroup -iss-safe-division=0 -iss-kernel=q -iss-local-size=16 -iss-mode=vec -iss-vector-width=8 -S %s -o %t.unguarded
; RUN: pocl-iss-opt -passes='iss-prepare,iss-barriers,iss-as-written,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops,iss-hoist-uniform,iss-codegen-attrs,iss-scalarize,iss-switch-tables' -iss-kernel=q -iss-local-size=16 -iss-mode=vec -iss-vector-width=8 -S %s -o %t.unguarded.listed
; RUN: diff %t.unguarded %t.unguarded.listed
; RUN: FileCheck %s --check-prefix=UNGUARDED < %t.unguarded
; RUN: pocl-iss-opt -passes=iss-workgroup -iss-kernel=q -iss-local-size=16 -iss-mode=scalar -iss-vector-width=8 -S %s -o %t.scalar
; RUN: pocl-iss-opt -passes='iss-prepare,iss-safe-division,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops,iss-hoist-uniform,iss-codegen-attrs,iss-switch-tables' -iss-kernel=q -iss-local-size=16 -iss-mode=scalar -iss-vector-width=8 -S %s -o %t.scalar.listed
; RUN: diff %t.scalar %t.scalar.listed
; RUN: FileCheck %s --check-prefix=SCALAR < %t.scalar

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define i64 @gid_x() alwaysinline {
  %off = load i64, ptr @_global_offset_x
  %gid = load i64, ptr @_group_id_x
  %ls = load i64, ptr @_local_size_x
  %base = mul i64 %ls, %gid
  %g0 = add i64 %off, %base
  %lid = load i64, ptr @_local_id_x
  %g = add i64 %g0, %lid
  ret i64 %g
}

define spir_kernel void @q(ptr %out, ptr %a, i32 %d) {
entry:
  %x = call i64 @gid_x()
  %pa = getelementptr inbounds i32, ptr %a, i64 %x
  %va = load i32, ptr %pa
  %qv = sdiv i32 %va, %d
  %po = getelementptr inbounds i32, ptr %out, i64 %x
  store i32 %qv, ptr %po
  ret void
}

; The selection and the work-group function, the division guarded.
; CHECK: define i32 @__iss_select_q(
; CHECK: define void @__iss_sub_q_0(
; CHECK: %div.safe = select i1 %div.unsafe, i32 1, i32 %div.d
; CHECK: sdiv i32 %{{.*}}, %div.safe
; CHECK: !{!"q", !"__iss_sub_q_0", !"split+score:x/8"}

; UNGUARDED: define void @__iss_sub_q_0(
; UNGUARDED-NOT: div.safe
; UNGUARDED: sdiv i32 %{{.*}}, %d
; UNGUARDED: !{!"q", !"__iss_sub_q_0", !"vec:x"}

; SCALAR: define void @__iss_sub_q_0(ptr noalias %args, ptr noalias %ctx) [[SCALAR:#[0-9]+]]
; SCALAR: attributes [[SCALAR]] = { {{.*}}"iss-scalar"{{.*}}"prefer-vector-width"=
; SCALAR: !{!"q", !"__iss_sub_q_0", !"scalar:scalar"}
