; iss-image-formats: the launch fixes the channel order and type of image
; argument 0 (-iss-image-args, "0=<order>.<type>" in hexadecimal: CL_RGBA
; 0x10B5, CL_UNSIGNED_INT8 0x10DA). The kernel's call of the library's
; read goes to a copy with its helper inlined and the descriptor's order,
; type, channel count (48) and element size (52) constant: the switch over
; the formats folds to the one case, small enough to be inlined into the
; kernel. The kernel's own query of the order folds too, and its loads
; from the descriptor, which never changes, are marked invariant (LICM
; then hoists them out of the work-item loops). The read of image
; argument 3, whose format the launch does not fix, stays a call of the
; library's read, which is left as it was.
;
; Source:
;   kernel void k(read_only image2d_t a, global uint4 *out, global int *q,
;                 read_only image2d_t b) {
;     out[0] = read_imageui(a, (int2)(0, 0));
;     out[1] = read_imageui(b, (int2)(0, 0));
;     q[0] = get_image_channel_order(a);
;   }
;
; RUN: pocl-iss-opt -passes=iss-image-formats -iss-kernel=k -iss-image-args=0=10b5.10da -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-image-formats -iss-kernel=k -iss-image-args=2=10b5.10da -S %s | FileCheck %s --check-prefix=NONE

target triple = "x86_64-pc-linux-gnu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %data.i = load ptr, ptr %a, align 8, !invariant.load ![[EMPTY:[0-9]+]]
; CHECK-NEXT: %p.i.i = load <4 x i8>, ptr %data.i
; CHECK-NEXT: %u.i.i = zext <4 x i8> %p.i.i to <4 x i32>
; CHECK-NEXT: store <4 x i32> %u.i.i, ptr %out
; CHECK-NEXT: %w = call <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %b, double 0.000000e+00)
; CHECK: store i32 4277, ptr %q
; CHECK-NEXT: ret void
; The library's read, for the image whose format is not fixed.
; CHECK-LABEL: define <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(
; CHECK: switch i32 %type
; CHECK: ![[EMPTY]] = !{}
; NONE-LABEL: define void @k(
; NONE-NEXT: %v = call <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %a, double 0.000000e+00)
; NONE: %o = load i32, ptr %at, align 4{{$}}
; NONE-NOT: .iss.
define void @k(ptr %a, ptr %out, ptr %q, ptr %b) {
  %v = call <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %a, double 0.0)
  store <4 x i32> %v, ptr %out, align 16
  %w = call <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %b, double 0.0)
  %out1 = getelementptr inbounds <4 x i32>, ptr %out, i64 1
  store <4 x i32> %w, ptr %out1, align 16
  %at = getelementptr inbounds i8, ptr %a, i64 40
  %o = load i32, ptr %at, align 4
  store i32 %o, ptr %q, align 4
  ret void
}

; The read: the format from the descriptor, the pixel from a helper.
define <4 x i32> @_Z16_cl_read_imageui14ocl_image2d_roDv2_i(ptr %img, double %c) #0 {
  %order.at = getelementptr inbounds i8, ptr %img, i64 40
  %order = load i32, ptr %order.at, align 4
  %type.at = getelementptr inbounds i8, ptr %img, i64 44
  %type = load i32, ptr %type.at, align 4
  %data = load ptr, ptr %img, align 8
  %p = call fastcc <4 x i32> @pocl_read_pixel(ptr %img, ptr %data, i32 %order, i32 %type)
  ret <4 x i32> %p
}

define internal fastcc <4 x i32> @pocl_read_pixel(ptr %img, ptr %data, i32 %order, i32 %type) {
entry:
  %size.at = getelementptr inbounds i8, ptr %img, i64 48
  %sizes = load <2 x i32>, ptr %size.at, align 8
  %channels = extractelement <2 x i32> %sizes, i64 0
  %four = icmp eq i32 %channels, 4
  br i1 %four, label %rgba, label %other

rgba:
  switch i32 %type, label %other [
    i32 4314, label %u8
    i32 4315, label %u16
  ]

u8:
  %p = load <4 x i8>, ptr %data, align 1
  %u = zext <4 x i8> %p to <4 x i32>
  ret <4 x i32> %u

u16:
  %h = load <4 x i16>, ptr %data, align 2
  %uh = zext <4 x i16> %h to <4 x i32>
  ret <4 x i32> %uh

other:
  %isr = icmp eq i32 %order, 4272
  %s = load i32, ptr %data, align 4
  %r = insertelement <4 x i32> zeroinitializer, i32 %s, i64 0
  ret <4 x i32> %r
}

attributes #0 = { noinline }
