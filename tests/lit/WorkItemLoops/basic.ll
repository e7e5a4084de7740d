; The work-group function of a one-dimensional barrier-free kernel: one
; work-item loop, kernel arguments loaded from their slots, work-item
; globals replaced by the loop counter and the context's fields, the loop
; marked parallel, the vectorizer's cost model left to decide in vec mode
; and the loop kept scalar in scalar mode. A loop of one to four tiles
; (w = 8 here) is kept from LLVM's full unroller, which runs before the
; loop vectorizer, and what the vectorizer makes of it is not; fewer or
; more work-items are left to the unroller.
;
; __kernel void k(__global float *a, float s) {
;   a[get_global_id(0)] *= s;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=16,1,1 -iss-mode=vec -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=16,1,1 -iss-mode=scalar -S %s | FileCheck %s --check-prefix=SCALAR
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=other -iss-local-size=16,1,1 -S %s | FileCheck %s --check-prefix=NONE
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=32,1,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s --check-prefix=ROLLED
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=4,1,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s --check-prefix=FREE
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=40,1,1 -iss-vector-width=8 -iss-mode=vec -S %s | FileCheck %s --check-prefix=FREE

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

; The kernel has only the implicit entry and exit barriers: one region, one
; loop nest, and no barrier call left in the work-group function.
; CHECK-LABEL: define void @__iss_sub_k_0(ptr noalias %args, ptr noalias %ctx)
; CHECK-NOT: call void @pocl.barrier
; CHECK: %a.val = load ptr, ptr %arg.slot
; CHECK: %s.val = load float, ptr %arg.slot{{[0-9]+}}
; The group id is loaded on its own (volatile): the device stores it right
; before the call, and a wider load could not be forwarded from that store.
; CHECK: %group_id_x = load volatile i64
; CHECK: %global_offset_x = load i64
; CHECK: wi.x.header:
; CHECK-NEXT: %local_id_x = phi i64 [ 0, %{{.*}} ], [ %local_id_x.next, %wi.x.latch ]
; CHECK: wi.x.latch:
; CHECK-NEXT: %local_id_x.next = add nuw nsw i64 %local_id_x, 1
; CHECK-NEXT: %[[MORE:.*]] = icmp ult i64 %local_id_x.next, 16
; CHECK-NEXT: br i1 %[[MORE]], label %wi.x.header, label %wi.x.done, !llvm.loop ![[LOOP:[0-9]+]]
; CHECK-NOT: wi.x.header:
; The region's copy: the work-item globals are the counter and the
; context's fields, the local size a constant.
; CHECK: %[[BASE:.*]] = mul i64 %group_id_x, 16
; CHECK: %[[G0:.*]] = add i64 %[[BASE]], %local_id_x
; CHECK: %[[G:.*]] = add i64 %[[G0]], %global_offset_x
; CHECK: %[[P:.*]] = getelementptr inbounds float, ptr %a.val, i64 %[[G]]
; CHECK: %[[V:.*]] = load float, ptr %[[P]], align 4, !llvm.access.group ![[GROUP:[0-9]+]]
; CHECK: %[[M:.*]] = fmul float %[[V]], %s.val
; CHECK: store float %[[M]], ptr %[[P]], align 4, !llvm.access.group ![[GROUP]]
; CHECK-NOT: call void @pocl.barrier
; CHECK-NOT: @_local_id_x
; CHECK: ret void
; CHECK-NEXT: }
; CHECK-LABEL: define i32 @__iss_select_k(ptr %0, ptr %1)
; CHECK-NEXT: entry:
; CHECK-NEXT: ret i32 0
; CHECK: !iss.subkernels = !{![[SUB:[0-9]+]]}
; CHECK-DAG: ![[SUB]] = !{!"k", !"__iss_sub_k_0", !"vec:x"}
; CHECK-DAG: ![[LOOP]] = distinct !{![[LOOP]], ![[PAR:[0-9]+]], ![[NOUNROLL:[0-9]+]], ![[FV:[0-9]+]], ![[FE:[0-9]+]]}
; CHECK-DAG: ![[PAR]] = !{!"llvm.loop.parallel_accesses", ![[GROUP]]}
; CHECK-DAG: ![[NOUNROLL]] = !{!"llvm.loop.unroll.disable"}
; CHECK-DAG: ![[FV]] = !{!"llvm.loop.vectorize.followup_vectorized", ![[ISVEC:[0-9]+]]}
; CHECK-DAG: ![[FE]] = !{!"llvm.loop.vectorize.followup_epilogue", ![[ISVEC]], ![[NORUNTIME:[0-9]+]]}
; CHECK-DAG: ![[ISVEC]] = !{!"llvm.loop.isvectorized"}
; CHECK-DAG: ![[NORUNTIME]] = !{!"llvm.loop.unroll.runtime.disable"}
; CHECK-NOT: llvm.loop.vectorize.width

; Four tiles of 8 still; 4 or 40 work-items not.
; ROLLED: icmp ult i64 %local_id_x.next, 32
; ROLLED: !{!"llvm.loop.unroll.disable"}
; FREE: wi.x.latch:
; FREE-NOT: llvm.loop.unroll.disable
; FREE-NOT: followup

; SCALAR-LABEL: define void @__iss_sub_k_0
; SCALAR: !{!"k", !"__iss_sub_k_0", !"scalar:scalar"}
; SCALAR: !{!"llvm.loop.vectorize.width", i32 1}
; SCALAR-NOT: llvm.loop.vectorize.enable

; A kernel that is not in the module is left alone.
; NONE-NOT: __iss_sub
; NONE: define spir_kernel void @k
; NONE-NOT: __iss_sub
