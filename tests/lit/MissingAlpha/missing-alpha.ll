; iss-missing-alpha: a read from a CL_R image gives an alpha of 1 (OpenCL
; C 3.0, 8.3), which pocl 3.1's library leaves 0 in integer reads and at
; the border. Once the library is linked, each read_image* of four
; elements that the module defines returns its last element as 1 (1.0 for
; floats) when the image's channel order (iss_image's channel_order, at
; byte 40 of its first argument) is CL_R (0x10B0): at every return, so
; that the calls, which stay calls, see the mended pixel with nothing
; between the read and its uses. Declarations, calls and queries are left
; alone.
;
; RUN: pocl-iss-opt -passes=iss-missing-alpha -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; The sampled float read, with the border colour on a path of its own.
; CHECK-LABEL: define <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(
; CHECK: border:
; CHECK-NEXT: %[[AT:.*]] = getelementptr inbounds i8, ptr %img, i64 40
; CHECK-NEXT: %[[ORDER:.*]] = load i32, ptr %[[AT]]
; CHECK-NEXT: %[[ISR:.*]] = icmp eq i32 %[[ORDER]], 4272
; CHECK-NEXT: %[[A:.*]] = select i1 %[[ISR]], float 1.000000e+00, float 0.000000e+00
; CHECK-NEXT: %[[V:.*]] = insertelement <4 x float> zeroinitializer, float %[[A]], i64 3
; CHECK-NEXT: ret <4 x float> %[[V]]
; CHECK: inside:
; CHECK-NEXT: %data = load ptr, ptr %img
; CHECK-NEXT: %p = load <4 x float>, ptr %data
; CHECK-NEXT: %[[AT2:.*]] = getelementptr inbounds i8, ptr %img, i64 40
; CHECK-NEXT: %[[ORDER2:.*]] = load i32, ptr %[[AT2]]
; CHECK-NEXT: %[[ISR2:.*]] = icmp eq i32 %[[ORDER2]], 4272
; CHECK-NEXT: %[[A2:.*]] = extractelement <4 x float> %p, i64 3
; CHECK-NEXT: %[[ALPHA2:.*]] = select i1 %[[ISR2]], float 1.000000e+00, float %[[A2]]
; CHECK-NEXT: %[[V2:.*]] = insertelement <4 x float> %p, float %[[ALPHA2]], i64 3
; CHECK-NEXT: ret <4 x float> %[[V2]]
define <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c) {
entry:
  %b = bitcast double %c to <2 x float>
  %x = extractelement <2 x float> %b, i64 0
  %out = fcmp olt float %x, 0.000000e+00
  br i1 %out, label %border, label %inside

border:
  ret <4 x float> zeroinitializer

inside:
  %data = load ptr, ptr %img
  %p = load <4 x float>, ptr %data
  ret <4 x float> %p
}

; An integer read: the alpha becomes i32 1.
; CHECK-LABEL: define <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(
; CHECK: %[[ALPHA3:.*]] = select i1 %{{.*}}, i32 1, i32 %{{.*}}
; CHECK-NEXT: %[[V3:.*]] = insertelement <4 x i32> %p, i32 %[[ALPHA3]], i64 3
; CHECK-NEXT: ret <4 x i32> %[[V3]]
define <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %img, double %c) {
  %data = load ptr, ptr %img
  %p = load <4 x i32>, ptr %data
  ret <4 x i32> %p
}

; A query of the image returns no pixel: left alone.
; CHECK-LABEL: define i32 @_Z27_cl_get_image_channel_order14ocl_image2d_ro(
; CHECK-NEXT: %at = getelementptr inbounds i8, ptr %img, i64 40
; CHECK-NEXT: %o = load i32, ptr %at
; CHECK-NEXT: ret i32 %o
define i32 @_Z27_cl_get_image_channel_order14ocl_image2d_ro(ptr %img) {
  %at = getelementptr inbounds i8, ptr %img, i64 40
  %o = load i32, ptr %at
  ret i32 %o
}

; The kernel's calls are not touched, nor calls of a read the module only
; declares.
; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT: %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
; CHECK-NEXT: store <4 x float> %v, ptr %f
; CHECK-NEXT: %w = call <4 x i32> @_Z15_cl_read_imagei14ocl_image2d_roDv2_i(ptr %img, double %c)
; CHECK-NEXT: store <4 x i32> %w, ptr %f
define spir_kernel void @k(ptr %img, ptr %s, double %c, ptr %f) {
  %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
  store <4 x float> %v, ptr %f, align 16
  %w = call <4 x i32> @_Z15_cl_read_imagei14ocl_image2d_roDv2_i(ptr %img, double %c)
  store <4 x i32> %w, ptr %f, align 16
  ret void
}

declare <4 x i32> @_Z15_cl_read_imagei14ocl_image2d_roDv2_i(ptr, double)
