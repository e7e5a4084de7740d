; iss-half-images mends the library's functions only: it leaves alone the
; program's own external functions of those names, and a function whose
; name merely begins with one.
;
; RUN: pocl-iss-opt -passes=iss-half-images -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define <4 x float> @pocl_read_pixel_fast_f(
; CHECK-NEXT: ret <4 x float> zeroinitializer
define <4 x float> @pocl_read_pixel_fast_f(i64 %base, i32 %type, i32 %order, ptr %data) {
  ret <4 x float> zeroinitializer
}

; CHECK-LABEL: define void @write_float_pixel(
; CHECK-NEXT: ret void
define void @write_float_pixel(float %color, ptr %data, i64 %base, i32 %type) {
  ret void
}

; CHECK-LABEL: define internal void @write_float_pixel_rtz(
; CHECK-NEXT: ret void
define internal void @write_float_pixel_rtz(float %color, ptr %data, i64 %base, i32 %type) {
  ret void
}
; CHECK-NOT: iss.half
