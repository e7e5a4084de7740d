; iss-printf: each printf call becomes a call of the kernel library's
; __pocl_printf with the printf buffer, its position and its capacity
; loaded from the work-item globals in front of the arguments (DESIGN.md
; section 3), and the format cast to address space 2, where the library
; takes it. The call's value is __pocl_printf's; printf's declaration goes.
;
; __kernel void k(__global int *out, int x, float f) {
;   out[0] = printf("%d %f\n", x, f);
;   if (x)
;     printf("x\n");
; }
;
; RUN: pocl-iss-opt -passes=iss-printf -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@.str = private unnamed_addr constant [7 x i8] c"%d %f\0A\00", align 1
@.str.1 = private unnamed_addr constant [3 x i8] c"x\0A\00", align 1

; CHECK-DAG: @_printf_buffer = external global ptr
; CHECK-DAG: @_printf_buffer_position = external global ptr
; CHECK-DAG: @_printf_buffer_capacity = external global i32

; CHECK-LABEL: define spir_kernel void @k(
define spir_kernel void @k(ptr %out, i32 %x, float %f) {
entry:
  %conv = fpext float %f to double
; CHECK: %[[B:.*]] = load ptr, ptr @_printf_buffer
; CHECK-NEXT: %[[P:.*]] = load ptr, ptr @_printf_buffer_position
; CHECK-NEXT: %[[C:.*]] = load i32, ptr @_printf_buffer_capacity
; CHECK-NEXT: %[[R:.*]] = call i32 (ptr, ptr, i32, ptr addrspace(2), ...) @__pocl_printf(ptr %[[B]], ptr %[[P]], i32 %[[C]], ptr addrspace(2) addrspacecast (ptr @.str to ptr addrspace(2)), i32 %x, double %conv)
; CHECK-NEXT: store i32 %[[R]], ptr %out
  %call = call spir_func i32 (ptr, ...) @printf(ptr noundef @.str, i32 noundef %x, double noundef %conv)
  store i32 %call, ptr %out
  %tobool = icmp ne i32 %x, 0
  br i1 %tobool, label %then, label %end

; CHECK: then:
; CHECK-NEXT: %[[B1:.*]] = load ptr, ptr @_printf_buffer
; CHECK-NEXT: %[[P1:.*]] = load ptr, ptr @_printf_buffer_position
; CHECK-NEXT: %[[C1:.*]] = load i32, ptr @_printf_buffer_capacity
; CHECK-NEXT: call i32 (ptr, ptr, i32, ptr addrspace(2), ...) @__pocl_printf(ptr %[[B1]], ptr %[[P1]], i32 %[[C1]], ptr addrspace(2) addrspacecast (ptr @.str.1 to ptr addrspace(2)))
; CHECK-NEXT: br label %end
then:
  %call1 = call spir_func i32 (ptr, ...) @printf(ptr noundef @.str.1)
  br label %end

end:
  ret void
}

; CHECK-NOT: @printf
; CHECK: declare i32 @__pocl_printf(ptr, ptr, i32, ptr addrspace(2), ...)
; CHECK-NOT: @printf
declare spir_func i32 @printf(ptr noundef, ...)
