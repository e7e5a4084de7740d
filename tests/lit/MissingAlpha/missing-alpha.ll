; iss-missing-alpha: a read from a CL_R image gives an alpha of 1 (OpenCL
; C 3.0, 8.3), which pocl 3.1's library leaves 0 in integer reads and at
; the border. After each read_image* of four elements, the last element
; becomes 1 (1.0 for floats) when the image's channel order (iss_image's
; channel_order, at byte 40) is CL_R (0x10B0); every use of the read sees
; the mended value.
;
; __kernel void k(read_only image2d_t img, sampler_t s, float2 c, int2 ci,
;                 __global float4 *f, __global uint4 *u) {
;   float4 v = read_imagef(img, s, c);
;   f[0] = v; f[1] = v;
;   u[0] = read_imageui(img, ci);
;   u[1].x = get_image_channel_order(img); // not a read: left alone
; }
;
; RUN: pocl-iss-opt -passes=iss-missing-alpha -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define spir_kernel void @k(
define spir_kernel void @k(ptr %img, ptr %s, double %c, double %ci, ptr %f, ptr %u) {
entry:
; CHECK: %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
; CHECK-NEXT: %[[AT:.*]] = getelementptr inbounds i8, ptr %img, i64 40
; CHECK-NEXT: %[[ORDER:.*]] = load i32, ptr %[[AT]]
; CHECK-NEXT: %[[ISR:.*]] = icmp eq i32 %[[ORDER]], 4272
; CHECK-NEXT: %[[A:.*]] = extractelement <4 x float> %v, i64 3
; CHECK-NEXT: %[[ALPHA:.*]] = select i1 %[[ISR]], float 1.000000e+00, float %[[A]]
; CHECK-NEXT: %[[V:.*]] = insertelement <4 x float> %v, float %[[ALPHA]], i64 3
; CHECK-NEXT: store <4 x float> %[[V]], ptr %f
; CHECK-NEXT: %f1 = getelementptr
; CHECK-NEXT: store <4 x float> %[[V]], ptr %f1
  %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c)
  store <4 x float> %v, ptr %f, align 16
  %f1 = getelementptr inbounds <4 x float>, ptr %f, i64 1
  store <4 x float> %v, ptr %f1, align 16
; CHECK-NEXT: %w = call <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %img, double %ci)
; CHECK-NEXT: %[[AT2:.*]] = getelementptr inbounds i8, ptr %img, i64 40
; CHECK-NEXT: %[[ORDER2:.*]] = load i32, ptr %[[AT2]]
; CHECK-NEXT: %[[ISR2:.*]] = icmp eq i32 %[[ORDER2]], 4272
; CHECK-NEXT: %[[A2:.*]] = extractelement <4 x i32> %w, i64 3
; CHECK-NEXT: %[[ALPHA2:.*]] = select i1 %[[ISR2]], i32 1, i32 %[[A2]]
; CHECK-NEXT: %[[W:.*]] = insertelement <4 x i32> %w, i32 %[[ALPHA2]], i64 3
; CHECK-NEXT: store <4 x i32> %[[W]], ptr %u
  %w = call <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %img, double %ci)
  store <4 x i32> %w, ptr %u, align 16
; CHECK-NEXT: %o = call i32 @_Z27_cl_get_image_channel_order14ocl_image2d_ro(ptr %img)
; CHECK-NEXT: %u1 = getelementptr
; CHECK-NEXT: store i32 %o, ptr %u1
  %o = call i32 @_Z27_cl_get_image_channel_order14ocl_image2d_ro(ptr %img)
  %u1 = getelementptr inbounds <4 x i32>, ptr %u, i64 1
  store i32 %o, ptr %u1, align 16
  ret void
}

declare <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr, ptr, double)
declare <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr, double)
declare i32 @_Z27_cl_get_image_channel_order14ocl_image2d_ro(ptr)
