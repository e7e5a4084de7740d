; iss-prepare: the library's image reads and writes stay calls, as on
; pocl. A read's body switches over every channel order and type (and,
; sampled, every addressing mode and filter) on values only the launch
; knows: forced inline into every work-item loop and subkernel, one
; sampled read made a compile take seconds per local size. The read and
; the write get noinline and lose convergent (they hold no barrier), at
; their calls too; what only they reach (the pixel helpers) keeps the
; library's attributes, for LLVM's inliner to decide, while a helper the
; kernel calls as well is always_inline as everything the kernel reaches.
; A function whose name merely contains "_cl_read_image" is no builtin.
;
; Source (the CTS's image streams test):
;   kernel void k(read_only image2d_t in, sampler_t s, global float4 *out,
;                 write_only image2d_t o) {
;     int x = get_global_id(0);
;     out[x] = read_imagef(in, s, (float2)(x, 0));
;     write_imagef(o, (int2)(x, 0), out[x]);
;   }
;
; RUN: pocl-iss-opt -passes=iss-prepare -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define i64 @_Z13get_global_idj(i32 %d) {
  %l = load i64, ptr @_local_id_x
  ret i64 %l
}

define internal fastcc <4 x i32> @pocl_read_pixel(ptr %img, <4 x i32> %c) #0 {
  %v = load <4 x i32>, ptr %img
  ret <4 x i32> %v
}

define internal fastcc i32 @shared_clamp(ptr %p) {
  %x = load i32, ptr %p
  %c = call i32 @llvm.smax.i32(i32 %x, i32 0)
  ret i32 %c
}

define <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c) #0 {
  %p = call fastcc <4 x i32> @pocl_read_pixel(ptr %img, <4 x i32> zeroinitializer) #0
  %q = call fastcc i32 @shared_clamp(ptr %img)
  %f = bitcast <4 x i32> %p to <4 x float>
  ret <4 x float> %f
}

define void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr %img, double %c, <4 x float> %v) #0 {
  store <4 x float> %v, ptr %img
  ret void
}

define i32 @my_cl_read_image_helper(ptr %p) {
  %x = load i32, ptr %p
  ret i32 %x
}

define spir_kernel void @k(ptr %in, ptr %s, ptr %out, ptr %o) {
  %g = call spir_func i64 @_Z13get_global_idj(i32 0)
  %v = call spir_func <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %in, ptr %s, double 0.0) #0
  %p = getelementptr inbounds <4 x float>, ptr %out, i64 %g
  store <4 x float> %v, ptr %p
  call spir_func void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr %o, double 0.0, <4 x float> %v) #0
  %c = call fastcc i32 @shared_clamp(ptr %out)
  %h = call i32 @my_cl_read_image_helper(ptr %out)
  ret void
}

declare i32 @llvm.smax.i32(i32, i32)

attributes #0 = { convergent }

; CHECK: define internal fastcc <4 x i32> @pocl_read_pixel(ptr {{.*}}%img, <4 x i32> %c) #[[PIXEL:[0-9]+]]
; CHECK: define internal i32 @shared_clamp(ptr {{.*}}%p) #[[SHARED:[0-9]+]]
; CHECK: define internal <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f({{.*}}) #[[READ:[0-9]+]]
; The helpers inside keep their own convention and convergence.
; CHECK-NEXT: call fastcc <4 x i32> @pocl_read_pixel(ptr %img, <4 x i32> zeroinitializer) #[[CONV:[0-9]+]]
; CHECK: define internal void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f({{.*}}) #[[WRITE:[0-9]+]]
; CHECK: define internal i32 @my_cl_read_image_helper(ptr {{.*}}%p) #[[SHARED]]
; CHECK-LABEL: define void @k(
; CHECK: %v = call <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %in, ptr %s, double 0.000000e+00){{$}}
; CHECK: call void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr %o, double 0.000000e+00, <4 x float> %v){{$}}
; CHECK-DAG: attributes #[[READ]] = { {{.*}}noinline{{.*}} }
; CHECK-DAG: attributes #[[WRITE]] = { {{.*}}noinline{{.*}} }
; CHECK-DAG: attributes #[[SHARED]] = { alwaysinline {{.*}}}
; CHECK-DAG: attributes #[[CONV]] = { convergent }
; CHECK-NOT: attributes #[[READ]] = { {{.*}}convergent
; CHECK-NOT: attributes #[[WRITE]] = { {{.*}}convergent
; CHECK-NOT: attributes #[[PIXEL]] = { {{.*}}alwaysinline
