; iss-printf leaves alone a printf that the program defines itself, and
; adds neither __pocl_printf nor the printf-buffer globals.
;
; RUN: pocl-iss-opt -passes=iss-printf -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [3 x i8] c"%d\00", align 1

; CHECK-NOT: _printf_buffer
; CHECK-LABEL: define spir_kernel void @k(
; CHECK: call i32 (ptr, ...) @printf(ptr @.str, i32 %x)
define spir_kernel void @k(i32 %x) {
  %call = call i32 (ptr, ...) @printf(ptr @.str, i32 %x)
  ret void
}

; CHECK-LABEL: define i32 @printf(
define i32 @printf(ptr %fmt, ...) {
  ret i32 0
}
; CHECK-NOT: __pocl_printf
; CHECK-NOT: _printf_buffer
