; iss-missing-alpha works on the program's calls of the library's reads,
; before the library is linked: calls of a read the module defines are
; left alone.
;
; RUN: pocl-iss-opt -passes=iss-missing-alpha -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
; CHECK-NEXT: store <4 x float> %v, ptr %out
define void @k(ptr %img, ptr %s, double %c, ptr %out) {
  %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
  store <4 x float> %v, ptr %out, align 16
  ret void
}

; CHECK-LABEL: define <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(
; CHECK-NEXT: ret <4 x float> zeroinitializer
define <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c) {
  ret <4 x float> zeroinitializer
}
