; iss-array-layers works on the program's calls of the library's
; functions, before the library is linked: a module that defines the read
; (the library's own code) is left alone.
;
; RUN: pocl-iss-opt -passes=iss-array-layers -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %r = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %a, ptr %s, <4 x float> %c)
; CHECK-NEXT: store <4 x float> %r, ptr %out
define void @k(ptr %a, ptr %s, <4 x float> %c, ptr %out) {
  %r = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %a, ptr %s, <4 x float> %c)
  store <4 x float> %r, ptr %out, align 16
  ret void
}

; CHECK-LABEL: define <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(
; CHECK-NEXT: ret <4 x float> %c
define <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %a, ptr %s, <4 x float> %c) {
  ret <4 x float> %c
}
