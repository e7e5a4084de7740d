; iss-array-layers: an image array's layer is never normalized (OpenCL C
; 3.0, 8.2), but pocl 3.1's library multiplies the whole coordinate, layer
; included, by the image's size under a sampler of normalized coordinates
; (bit 0 of its CLK_* bits). Before each sampled read of an array with
; float coordinates, the layer is divided by the array size (iss_image's
; array_size, at byte 20) under such a sampler. The 1D array's float2
; coordinate is passed as a double.
;
; __kernel void k(read_only image2d_array_t a2, read_only image1d_array_t a1,
;                 read_only image2d_t i2, sampler_t s, float4 c, float2 c1,
;                 int4 ci, __global float4 *out) {
;   out[0] = read_imagef(a2, s, c);
;   out[1] = read_imagef(a1, s, c1);
;   out[2] = read_imagef(a2, s, ci);  // integer coordinates: left alone
;   out[3] = read_imagef(i2, s, c1);  // not an array: left alone
;   out[4] = read_imagef(a2, ci);     // no sampler: left alone
; }
;
; RUN: pocl-iss-opt -passes=iss-array-layers -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define spir_kernel void @k(
define spir_kernel void @k(ptr %a2, ptr %a1, ptr %i2, ptr %s, <4 x float> %c, double %c1, <4 x i32> %ci, ptr %out) {
entry:
; The 2D array's layer is z.
; CHECK: %[[BITS:.*]] = ptrtoint ptr %s to i64
; CHECK-NEXT: %[[NB:.*]] = and i64 %[[BITS]], 1
; CHECK-NEXT: %[[NORM:.*]] = icmp ne i64 %[[NB]], 0
; CHECK-NEXT: %[[AT:.*]] = getelementptr inbounds i8, ptr %a2, i64 20
; CHECK-NEXT: %[[N:.*]] = load i32, ptr %[[AT]]
; CHECK-NEXT: %[[NF:.*]] = sitofp i32 %[[N]] to float
; CHECK-NEXT: %[[L:.*]] = extractelement <4 x float> %c, i64 2
; CHECK-NEXT: %[[DIV:.*]] = fdiv float %[[L]], %[[NF]]
; CHECK-NEXT: %[[SEL:.*]] = select i1 %[[NORM]], float %[[DIV]], float %[[L]]
; CHECK-NEXT: %[[C:.*]] = insertelement <4 x float> %c, float %[[SEL]], i64 2
; CHECK-NEXT: %r0 = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %a2, ptr %s, <4 x float> %[[C]])
  %r0 = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %a2, ptr %s, <4 x float> %c)
  store <4 x float> %r0, ptr %out, align 16
; The 1D array's layer is y, of the float2 passed as a double.
; CHECK: %[[V1:.*]] = bitcast double %c1 to <2 x float>
; CHECK-NEXT: %[[BITS1:.*]] = ptrtoint ptr %s to i64
; CHECK-NEXT: %[[NB1:.*]] = and i64 %[[BITS1]], 1
; CHECK-NEXT: %[[NORM1:.*]] = icmp ne i64 %[[NB1]], 0
; CHECK-NEXT: %[[AT1:.*]] = getelementptr inbounds i8, ptr %a1, i64 20
; CHECK-NEXT: %[[N1:.*]] = load i32, ptr %[[AT1]]
; CHECK-NEXT: %[[NF1:.*]] = sitofp i32 %[[N1]] to float
; CHECK-NEXT: %[[L1:.*]] = extractelement <2 x float> %[[V1]], i64 1
; CHECK-NEXT: %[[DIV1:.*]] = fdiv float %[[L1]], %[[NF1]]
; CHECK-NEXT: %[[SEL1:.*]] = select i1 %[[NORM1]], float %[[DIV1]], float %[[L1]]
; CHECK-NEXT: %[[W1:.*]] = insertelement <2 x float> %[[V1]], float %[[SEL1]], i64 1
; CHECK-NEXT: %[[C1:.*]] = bitcast <2 x float> %[[W1]] to double
; CHECK-NEXT: %r1 = call <4 x float> @_Z15_cl_read_imagef20ocl_image1d_array_ro11ocl_samplerDv2_f(ptr %a1, ptr %s, double %[[C1]])
  %r1 = call <4 x float> @_Z15_cl_read_imagef20ocl_image1d_array_ro11ocl_samplerDv2_f(ptr %a1, ptr %s, double %c1)
  %p1 = getelementptr inbounds <4 x float>, ptr %out, i64 1
  store <4 x float> %r1, ptr %p1, align 16
; CHECK: %p1 = getelementptr
; CHECK-NEXT: store <4 x float> %r1
; CHECK-NEXT: %r2 = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_i(ptr %a2, ptr %s, <4 x i32> %ci)
; CHECK-NEXT: %p2 = getelementptr
; CHECK-NEXT: store <4 x float> %r2
; CHECK-NEXT: %r3 = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %i2, ptr %s, double %c1)
; CHECK-NEXT: %p3 = getelementptr
; CHECK-NEXT: store <4 x float> %r3
; CHECK-NEXT: %r4 = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_roDv4_i(ptr %a2, <4 x i32> %ci)
  %r2 = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_i(ptr %a2, ptr %s, <4 x i32> %ci)
  %p2 = getelementptr inbounds <4 x float>, ptr %out, i64 2
  store <4 x float> %r2, ptr %p2, align 16
  %r3 = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %i2, ptr %s, double %c1)
  %p3 = getelementptr inbounds <4 x float>, ptr %out, i64 3
  store <4 x float> %r3, ptr %p3, align 16
  %r4 = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_roDv4_i(ptr %a2, <4 x i32> %ci)
  %p4 = getelementptr inbounds <4 x float>, ptr %out, i64 4
  store <4 x float> %r4, ptr %p4, align 16
  ret void
}

declare <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr, ptr, <4 x float>)
declare <4 x float> @_Z15_cl_read_imagef20ocl_image1d_array_ro11ocl_samplerDv2_f(ptr, ptr, double)
declare <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_i(ptr, ptr, <4 x i32>)
declare <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr, ptr, double)
declare <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_roDv4_i(ptr, <4 x i32>)
