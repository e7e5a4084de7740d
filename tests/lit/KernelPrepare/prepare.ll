; iss-prepare: library functions lose noinline/optnone (pocl ships
; get_global_id with them), what the kernel reaches becomes always_inline,
; the printf formatter stays out of line, everything but the kernel becomes
; internal, _local_size_* loads become the compile-time local size and the
; kernel gets the "iss-local-size" attribute. A function that touches no
; memory and always returns (LLVM's attribute inference says so) is marked
; "iss-inline-late" instead of always_inline, loses `convergent` (it holds
; no barrier), and it and its calls take the C convention (the library's
; internal helpers are fastcc): it stays a call until iss-hoist-uniform.
;
; RUN: pocl-iss-opt -passes=iss-prepare -iss-kernel=k -iss-local-size=32,2,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-prepare -iss-kernel=absent -iss-local-size=32,2,1 -S %s | FileCheck %s --check-prefix=ABSENT

target triple = "x86_64-pc-linux-gnu"

@_local_size_x = external global i64
@_local_size_y = external global i64
@_local_id_x = external global i64

define i64 @_Z13get_global_idj(i32 %d) #0 {
  %l = load i64, ptr @_local_id_x
  ret i64 %l
}

define i32 @__pocl_printf_format_full(ptr %f) {
  ret i32 0
}

define internal fastcc float @square(float %x) #1 {
  %y = fmul float %x, %x
  ret float %y
}

define i32 @unused(i32 %x) {
  ret i32 %x
}

define spir_kernel void @k(ptr %a) {
  %g = call spir_func i64 @_Z13get_global_idj(i32 0)
  %sx = load i64, ptr @_local_size_x
  %sy = load i64, ptr @_local_size_y
  %s = add i64 %sx, %sy
  %t = add i64 %g, %s
  %r = call i32 @__pocl_printf_format_full(ptr null)
  %p = getelementptr inbounds i64, ptr %a, i64 %t
  store i64 %s, ptr %p
  %sq = call fastcc float @square(float 2.0) #1
  %pf = getelementptr inbounds float, ptr %a, i64 1
  store float %sq, ptr %pf
  ret void
}

define spir_kernel void @other(ptr %a) {
  ret void
}

attributes #0 = { noinline optnone }
attributes #1 = { convergent }

; The library's get_global_id is behind the wrapper of dimensions.ll.
; CHECK: define internal i64 @_Z13get_global_idj.pocl(i32 %d) #[[INL:[0-9]+]]
; CHECK: define internal {{.*}}i32 @__pocl_printf_format_full(ptr {{.*}}%f) #[[NOINL:[0-9]+]]
; CHECK: define internal float @square(float {{.*}}%x) #[[LATE:[0-9]+]]
; CHECK: define internal {{.*}}i32 @unused(i32 {{.*}}%x) #{{[0-9]+}} {
; CHECK: define void @k(ptr {{.*}}%a) #[[KATTR:[0-9]+]]
; CHECK: call i64 @_Z13get_global_idj(i32 0)
; CHECK-NOT: load i64, ptr @_local_size
; CHECK: %s = add i64 32, 2
; CHECK: %sq = call float @square(float 2.000000e+00){{$}}
; CHECK: define internal spir_kernel void @other
; CHECK-DAG: attributes #[[INL]] = { alwaysinline {{.*}}}
; CHECK-DAG: attributes #[[NOINL]] = { {{.*}}noinline {{.*}}}
; CHECK-DAG: attributes #[[LATE]] = { {{.*}}willreturn memory(none) "iss-inline-late" }
; The kernel is always_inline too, and carries the local size for the
; uniformity analysis.
; CHECK-DAG: attributes #[[KATTR]] = { alwaysinline {{.*}}"iss-local-size"="32,2,1" }

; ABSENT: define i64 @_Z13get_global_idj(i32 %d) #0
; ABSENT: attributes #0 = { noinline optnone }
; ABSENT-NOT: iss-inline-late
attributes #1 = { convergent }
