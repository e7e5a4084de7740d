; The work-group function of a one-dimensional barrier-free kernel: one
; work-item loop, kernel arguments loaded from their slots, work-item
; globals replaced by the loop counter and the context's fields, the loop
; marked parallel, the vectorizer's cost model left to decide in vec mode
; and the loop kept scalar in scalar mode.
;
; __kernel void k(__global float *a, float s) {
;   a[get_global_id(0)] *= s;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-wi-loops -iss-kernel=k -iss-local-size=16,1,1 -iss-mode=vec -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-wi-loops -iss-kernel=k -iss-local-size=16,1,1 -iss-mode=scalar -S %s | FileCheck %s --check-prefix=SCALAR
; RUN: pocl-iss-opt -passes=iss-prepare,iss-wi-loops -iss-kernel=other -iss-local-size=16,1,1 -S %s | FileCheck %s --check-prefix=NONE

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_size_x = external global i64
@_group_id_x = external global i64
@_global_offset_x = external global i64

define spir_kernel void @k(ptr %a, float %s) {
entry:
  %lid = load i64, ptr @_local_id_x
  %ls = load i64, ptr @_local_size_x
  %gid = load i64, ptr @_group_id_x
  %off = load i64, ptr @_global_offset_x
  %base = mul i64 %gid, %ls
  %g0 = add i64 %base, %lid
  %g = add i64 %g0, %off
  %p = getelementptr inbounds float, ptr %a, i64 %g
  %v = load float, ptr %p
  %m = fmul float %v, %s
  store float %m, ptr %p
  ret void
}

; CHECK-LABEL: define void @__iss_sub_k_0(ptr noalias %args, ptr noalias %ctx)
; CHECK: %group_id_x = load i64
; CHECK: %global_offset_x = load i64
; CHECK: %a.val = load ptr, ptr %arg.slot
; CHECK: %s.val = load float, ptr %arg.slot{{[0-9]+}}
; CHECK: wi.x.header:
; CHECK-NEXT: %local_id_x = phi i64 [ 0, %entry ], [ %local_id_x.next, %wi.x.latch ]
; CHECK: mul i64 %group_id_x, 16
; CHECK: load float, ptr %{{.*}}, !llvm.access.group ![[GROUP:[0-9]+]]
; CHECK: store float %{{.*}}, !llvm.access.group ![[GROUP]]
; CHECK: wi.x.latch:
; CHECK: %local_id_x.next = add nuw nsw i64 %local_id_x, 1
; CHECK: icmp ult i64 %local_id_x.next, 16
; CHECK: br i1 %{{.*}}, label %wi.x.header, label %wi.x.done, !llvm.loop ![[LOOP:[0-9]+]]
; CHECK-LABEL: define i32 @__iss_select_k(ptr %0, ptr %1)
; CHECK-NEXT: entry:
; CHECK-NEXT: ret i32 0
; CHECK: !iss.subkernels = !{![[SUB:[0-9]+]]}
; CHECK: ![[SUB]] = !{!"k", !"__iss_sub_k_0", !"vec:x"}
; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[PAR:[0-9]+]]}
; CHECK: ![[PAR]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}
; CHECK-NOT: llvm.loop.vectorize

; SCALAR-LABEL: define void @__iss_sub_k_0
; SCALAR: !{!"k", !"__iss_sub_k_0", !"scalar:scalar"}
; SCALAR: !{!"llvm.loop.vectorize.width", i32 1}
; SCALAR-NOT: llvm.loop.vectorize.enable

; A kernel that is not in the module is left alone.
; NONE-NOT: __iss_sub
; NONE: define spir_kernel void @k
; NONE-NOT: __iss_sub
