; iss-half-images: pocl 3.1's one-channel float pixel read and write have
; no CL_HALF_FLOAT (0x10DD) case: a pixel reads as 234.0 and is never
; written. In front of the linked library's internal
; pocl_read_pixel_fast_f(base, type, order, data) goes a half case for
; CL_R (0x10B0) and CL_A (0x10B1): the half at data[base], as (h, 0, 0, 1)
; for CL_R and (0, 0, 0, h) for CL_A; in front of write_float_pixel(color,
; data, base, type), one that stores the colour rounded to a half. The
; test comes after the entry's allocas; the linker's suffix on a name is
; accepted.
;
; RUN: pocl-iss-opt -passes=iss-half-images -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define internal <4 x float> @pocl_read_pixel_fast_f(
; CHECK-NEXT: %[[ISR:.*]] = icmp eq i32 %order, 4272
; CHECK-NEXT: %[[ISA:.*]] = icmp eq i32 %order, 4273
; CHECK-NEXT: %[[ISH:.*]] = icmp eq i32 %type, 4317
; CHECK-NEXT: %[[RA:.*]] = or i1 %[[ISR]], %[[ISA]]
; CHECK-NEXT: %[[TAKE:.*]] = and i1 %[[ISH]], %[[RA]]
; CHECK-NEXT: br i1 %[[TAKE]], label %iss.half, label %pocl.path
; CHECK: iss.half:
; CHECK-NEXT: %[[AT:.*]] = getelementptr half, ptr %data, i64 %base
; CHECK-NEXT: %[[H:.*]] = load half, ptr %[[AT]], align 2
; CHECK-NEXT: %[[F:.*]] = fpext half %[[H]] to float
; CHECK-NEXT: %[[R:.*]] = insertelement <4 x float> <float 0.000000e+00, float 0.000000e+00, float 0.000000e+00, float 1.000000e+00>, float %[[F]], i64 0
; CHECK-NEXT: %[[A:.*]] = insertelement <4 x float> zeroinitializer, float %[[F]], i64 3
; CHECK-NEXT: %[[V:.*]] = select i1 %[[ISR]], <4 x float> %[[R]], <4 x float> %[[A]]
; CHECK-NEXT: ret <4 x float> %[[V]]
; CHECK: pocl.path:
; CHECK-NEXT: %p = getelementptr inbounds float, ptr %data, i64 %base
; CHECK-NEXT: %x = load float, ptr %p, align 4
define internal <4 x float> @pocl_read_pixel_fast_f(i64 %base, i32 %type, i32 %order, ptr %data) {
  %p = getelementptr inbounds float, ptr %data, i64 %base
  %x = load float, ptr %p, align 4
  %v = insertelement <4 x float> zeroinitializer, float %x, i64 0
  ret <4 x float> %v
}

; CHECK-LABEL: define internal void @write_float_pixel.2(
; CHECK-NEXT: %bits = alloca i32
; CHECK-NEXT: %[[ISH:.*]] = icmp eq i32 %type, 4317
; CHECK-NEXT: br i1 %[[ISH]], label %iss.half, label %pocl.path
; CHECK: iss.half:
; CHECK-NEXT: %[[AT:.*]] = getelementptr half, ptr %data, i64 %base
; CHECK-NEXT: %[[H:.*]] = fptrunc float %color to half
; CHECK-NEXT: store half %[[H]], ptr %[[AT]], align 2
; CHECK-NEXT: ret void
; CHECK: pocl.path:
; CHECK-NEXT: %p = getelementptr inbounds float, ptr %data, i64 %base
; CHECK-NEXT: store float %color, ptr %p, align 4
define internal void @write_float_pixel.2(float %color, ptr %data, i64 %base, i32 %type) {
  %bits = alloca i32, align 4
  %p = getelementptr inbounds float, ptr %data, i64 %base
  store float %color, ptr %p, align 4
  ret void
}
