; iss-image-align changes nothing in a program whose image builtins are
; still declarations (the library not linked): the kernel's own vector
; accesses keep their alignment.
;
; RUN: pocl-iss-opt -passes=iss-image-align -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT: %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
; CHECK-NEXT: store <4 x float> %v, ptr %out, align 16
; CHECK-NEXT: call void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr %img, double %c, <4 x float> %v)
define spir_kernel void @k(ptr %img, ptr %s, double %c, ptr %out) {
  %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
  store <4 x float> %v, ptr %out, align 16
  call void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr %img, double %c, <4 x float> %v)
  ret void
}

declare <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr, ptr, double)
declare void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr, double, <4 x float>)
