; The vectorized dimension goes innermost: with a local size of 1x8x4 and
; w = 8, vec mode vectorizes dimension y (the first with at least w
; work-items, the input-space-splitting paper, section 6.3), so the x loop
; is absent (size 1), z is outside and y inside. With 32x4x1, x is inner.
;
; __kernel void k(__global int *a) {
;   a[get_local_id(2) * 64 + get_local_id(1) * 8 + get_local_id(0)] = 1;
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=1,8,4 -iss-vector-width=8 -S %s | FileCheck %s --check-prefix=Y
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers,iss-loop-barriers,iss-cond-barriers,iss-context,iss-wi-loops -iss-kernel=k -iss-local-size=32,4,1 -iss-vector-width=8 -S %s | FileCheck %s --check-prefix=X

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64
@_local_id_y = external global i64
@_local_id_z = external global i64

define spir_kernel void @k(ptr %a) {
entry:
  %x = load i64, ptr @_local_id_x
  %y = load i64, ptr @_local_id_y
  %z = load i64, ptr @_local_id_z
  %z64 = mul i64 %z, 64
  %y8 = mul i64 %y, 8
  %i0 = add i64 %z64, %y8
  %i = add i64 %i0, %x
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  store i32 1, ptr %p
  ret void
}

; Y-LABEL: define void @__iss_sub_k_0
; Y-NOT: wi.x.header
; Y: wi.z.header:
; Y-NEXT: %local_id_z = phi i64
; Y: wi.y.header:
; Y-NEXT: %local_id_y = phi i64
; Y-NOT: wi.x.header
; Y: wi.y.latch:
; Y: icmp ult i64 %local_id_y.next, 8
; Y: br i1 %{{.*}}, label %wi.y.header, label %wi.y.done, !llvm.loop ![[INNER:[0-9]+]]
; Y: wi.z.latch:
; Y: icmp ult i64 %local_id_z.next, 4
; Y: br i1 %{{.*}}, label %wi.z.header, label %wi.z.done, !llvm.loop ![[OUTER:[0-9]+]]
; Y-NOT: wi.x.header
; Y: mul i64 %local_id_z, 64
; Y: mul i64 %local_id_y, 8
; The x local id is the constant 0.
; Y: add i64 %{{.*}}, 0
; Y: !{!"k", !"__iss_sub_k_0", !"vec:y"}
; Y-DAG: ![[INNER]] = distinct !{![[INNER]], !{{[0-9]+}}, ![[W:[0-9]+]], !{{[0-9]+}}, !{{[0-9]+}}, !{{[0-9]+}}}
; Y-DAG: ![[W]] = !{!"llvm.loop.vectorize.width", i32 8}
; Y-DAG: ![[OUTER]] = distinct !{![[OUTER]], !{{[0-9]+}}}

; X-LABEL: define void @__iss_sub_k_0
; X: wi.y.header:
; X: wi.x.header:
; X-NOT: wi.z.header
; X: !{!"k", !"__iss_sub_k_0", !"vec:x"}
