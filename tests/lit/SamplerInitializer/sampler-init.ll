; iss-sampler-init: a sampler_t constant reaches the IR as a call of
; __translate_sampler_initializer(i32 bits), which Clang leaves for the
; target; pocl 3.1's library takes a sampler as its CLK_* bits in a
; pointer-sized integer, so each call becomes the bits as a pointer (a
; constant for a constant), and the declaration goes.
;
; constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP |
;                        CLK_FILTER_LINEAR; // 0x25
; __kernel void k(read_only image2d_t img, __global float4 *out) {
;   out[0] = read_imagef(img, s, (float2)(0.5f, 0.5f));
; }
;
; RUN: pocl-iss-opt -passes=iss-sampler-init -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define spir_kernel void @k(
; CHECK-NEXT: entry:
; CHECK-NEXT: %call = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr inttoptr (i64 37 to ptr), double 0x3F0000003F000000)
define spir_kernel void @k(ptr %img, ptr %out) {
entry:
  %s = call ptr @__translate_sampler_initializer(i32 37)
  %call = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double 0x3F0000003F000000)
  store <4 x float> %call, ptr %out, align 16
  ret void
}

; A sampler's bits that are not a constant are widened where the call was.
; CHECK-LABEL: define void @bits(
; CHECK-NEXT: %[[W:.*]] = zext i32 %b to i64
; CHECK-NEXT: %[[S:.*]] = inttoptr i64 %[[W]] to ptr
; CHECK-NEXT: store ptr %[[S]], ptr %out
define void @bits(i32 %b, ptr %out) {
  %s = call ptr @__translate_sampler_initializer(i32 %b)
  store ptr %s, ptr %out
  ret void
}

; CHECK-NOT: __translate_sampler_initializer
declare ptr @__translate_sampler_initializer(i32)
declare <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr, ptr, double)
