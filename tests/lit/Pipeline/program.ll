; -passes=iss-before-library and iss-after-library: the program build's
; two pipelines, around the kernel library's linking, built from
; PassRegistry.def's program passes of each stage in their order
; (programPipeline), as clBuildProgram and clLinkProgram run them. They
; run the same sequence as the passes named one by one. Before linking,
; a read of a 2D array gets its layer divided (iss-array-layers); after
; linking, the library's reads return a mended alpha (iss-missing-alpha),
; its pixel write gets its alignment relaxed (iss-image-align) and its
; half case (iss-half-images), and its roundings become llvm.rint
; (iss-rint, none here).
;
; __kernel void k(read_only image2d_array_t img, __global float4 *out,
;                 float4 c) {
;   constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_FILTER_LINEAR;
;   out[0] = read_imagef(img, s, c);
;   printf("%v4hlf\n", out[0]);
; }
;
; RUN: pocl-iss-opt -passes=iss-before-library -S %s -o %t.named
; RUN: pocl-iss-opt -passes=iss-printf,iss-sampler-init,iss-array-layers -S %s -o %t.listed
; RUN: diff %t.named %t.listed
; RUN: FileCheck %s < %t.named
; RUN: pocl-iss-opt -passes=iss-after-library -S %s -o %t.after.named
; RUN: pocl-iss-opt -passes=iss-missing-alpha,iss-image-align,iss-half-images,iss-rint -S %s -o %t.after.listed
; RUN: diff %t.after.named %t.after.listed
; RUN: FileCheck %s --check-prefix=AFTER < %t.after.named

target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [8 x i8] c"%v4hlf\0A\00", align 1

; The sampler is a constant by the time the layer is divided: its
; normalized-coordinates bit has folded to true. The printf call sees the
; read's value.
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: getelementptr inbounds i8, ptr %img, i64 20
; CHECK: %[[L:.*]] = extractelement <4 x float> %c, i64 2
; CHECK-NEXT: %[[D:.*]] = fdiv float %[[L]],
; CHECK-NEXT: %[[S:.*]] = select i1 true, float %[[D]], float %[[L]]
; CHECK-NEXT: %[[C:.*]] = insertelement <4 x float> %c, float %[[S]], i64 2
; CHECK-NEXT: %r = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %img, ptr inttoptr (i64 33 to ptr), <4 x float> %[[C]])
; CHECK-NEXT: store <4 x float> %r, ptr %out
; CHECK: call i32 (ptr, ptr, i32, ptr addrspace(2), ...) @__pocl_printf({{.*}}, <4 x float> %r)
; AFTER-LABEL: define spir_kernel void @k(
; AFTER: %r = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %img, ptr %s, <4 x float> %c)
; AFTER-NEXT: store <4 x float> %r, ptr %out
define spir_kernel void @k(ptr %img, ptr %out, <4 x float> %c) {
entry:
  %s = call ptr @__translate_sampler_initializer(i32 33)
  %r = call <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr %img, ptr %s, <4 x float> %c)
  store <4 x float> %r, ptr %out, align 16
  %call = call i32 (ptr, ...) @printf(ptr @.str, <4 x float> %r)
  ret void
}

; The library's write, linked into the program by the time the second
; pipeline runs.
; CHECK-LABEL: define internal void @write_float_pixel(
; CHECK-NEXT: store <4 x float> zeroinitializer, ptr %data, align 16
; AFTER-LABEL: define internal void @write_float_pixel(
; AFTER-NEXT: %[[H:.*]] = icmp eq i32 %type, 4317
; AFTER-NEXT: br i1 %[[H]], label %iss.half, label %pocl.path
; AFTER: pocl.path:
; AFTER-NEXT: store <4 x float> zeroinitializer, ptr %data, align 4
define internal void @write_float_pixel(float %color, ptr %data, i64 %base, i32 %type) {
  store <4 x float> zeroinitializer, ptr %data, align 16
  ret void
}

; A read the library defines returns the mended alpha after linking only.
; CHECK-LABEL: define <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(
; CHECK-NEXT: %data = load ptr, ptr %img
; CHECK-NEXT: %p = load <4 x i32>, ptr %data
; CHECK-NEXT: ret <4 x i32> %p
; AFTER-LABEL: define <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(
; AFTER: %[[ALPHA:.*]] = select i1 %{{.*}}, i32 1, i32 %{{.*}}
; AFTER-NEXT: %[[M:.*]] = insertelement <4 x i32> %p, i32 %[[ALPHA]], i64 3
; AFTER-NEXT: ret <4 x i32> %[[M]]
define <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %img, double %c) {
  %data = load ptr, ptr %img, align 8
  %p = load <4 x i32>, ptr %data, align 16
  ret <4 x i32> %p
}

define void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr %img, double %coord, <4 x float> %color) {
  %data = load ptr, ptr %img, align 8
  %x = extractelement <4 x float> %color, i64 0
  call void @write_float_pixel(float %x, ptr %data, i64 0, i32 4318)
  ret void
}

declare ptr @__translate_sampler_initializer(i32)
declare <4 x float> @_Z15_cl_read_imagef20ocl_image2d_array_ro11ocl_samplerDv4_f(ptr, ptr, <4 x float>)
declare i32 @printf(ptr, ...)
