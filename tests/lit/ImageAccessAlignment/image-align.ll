; iss-image-align: pocl 3.1's library reads and writes a pixel as one
; vector, which LLVM may make an aligned vector instruction, while an
; image over the application's memory (CL_MEM_USE_HOST_PTR) may be aligned
; to its channels only. In the linked library's image builtins and every
; function they reach, each vector load and store gets the alignment of
; its element; scalar accesses, accesses aligned less already and
; functions the builtins do not reach keep theirs.
;
; RUN: pocl-iss-opt -passes=iss-image-align -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: define <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(
; CHECK-NEXT: %data = load ptr, ptr %img, align 8
; CHECK-NEXT: %v = load <4 x float>, ptr %data, align 4
; CHECK-NEXT: %w = call <4 x i8> @read_pixel_uchar(ptr %data)
define <4 x float> @_Z15_cl_read_imagef14ocl_image2d_ro11ocl_samplerDv2_f(ptr %img, ptr %s, double %c) {
  %data = load ptr, ptr %img, align 8
  %v = load <4 x float>, ptr %data, align 16
  %w = call <4 x i8> @read_pixel_uchar(ptr %data)
  ret <4 x float> %v
}

; Reached from the read: its vectors' alignments become their elements'.
; CHECK-LABEL: define internal <4 x i8> @read_pixel_uchar(
; CHECK-NEXT: %v = load <4 x i8>, ptr %p, align 1
; CHECK-NEXT: %h = load <2 x i16>, ptr %p, align 2
; CHECK-NEXT: %x = load i32, ptr %p, align 4
; CHECK-NEXT: call void @store_pixel(ptr %p, <4 x i8> %v)
define internal <4 x i8> @read_pixel_uchar(ptr %p) {
  %v = load <4 x i8>, ptr %p, align 4
  %h = load <2 x i16>, ptr %p, align 4
  %x = load i32, ptr %p, align 4
  call void @store_pixel(ptr %p, <4 x i8> %v)
  ret <4 x i8> %v
}

; Two levels down, a store.
; CHECK-LABEL: define internal void @store_pixel(
; CHECK-NEXT: store <4 x i8> %v, ptr %p, align 1
define internal void @store_pixel(ptr %p, <4 x i8> %v) {
  store <4 x i8> %v, ptr %p, align 4
  ret void
}

; CHECK-LABEL: define void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(
; CHECK-NEXT: %data = load ptr, ptr %img, align 8
; CHECK-NEXT: store <4 x float> %color, ptr %data, align 4
; CHECK-NEXT: %h = getelementptr
; CHECK-NEXT: store <4 x half> zeroinitializer, ptr %h, align 2
; Aligned less than its element already: kept.
; CHECK-NEXT: %d = getelementptr
; CHECK-NEXT: store <2 x double> zeroinitializer, ptr %d, align 4
define void @_Z16_cl_write_imagef14ocl_image2d_woDv2_iDv4_f(ptr %img, double %c, <4 x float> %color) {
  %data = load ptr, ptr %img, align 8
  store <4 x float> %color, ptr %data, align 16
  %h = getelementptr inbounds i8, ptr %data, i64 16
  store <4 x half> zeroinitializer, ptr %h, align 8
  %d = getelementptr inbounds i8, ptr %data, i64 32
  store <2 x double> zeroinitializer, ptr %d, align 4
  ret void
}

; Not an image builtin, nor reached from one: left alone.
; CHECK-LABEL: define <4 x float> @vload(
; CHECK-NEXT: %v = load <4 x float>, ptr %p, align 16
; CHECK-NEXT: store <4 x float> %v, ptr %p, align 16
define <4 x float> @vload(ptr %p) {
  %v = load <4 x float>, ptr %p, align 16
  store <4 x float> %v, ptr %p, align 16
  ret <4 x float> %v
}
