; iss-prepare: a helper that reads work-item state through a call is never
; inlined late, though LLVM's attribute inference calls it free of memory
; accesses: opencl-c.h declares get_global_id `const`, so clang gives its
; calls memory(none). Left out of line until iss-hoist-uniform, its read of
; _local_id_x would escape the work-item loops (the compiler then refused
; every kernel with such a helper). A helper that reaches a barrier is not
; inlined late either; a pure helper still is.
;
; size_t idx(void) { return get_global_id(0); }
; float twice(float x) { return x + x; }
; __kernel void k(__global float *a) { a[idx()] = twice(1.0f); }
;
; RUN: pocl-iss-opt -passes=iss-prepare -iss-kernel=k -iss-local-size=8,1,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

define i64 @_Z13get_global_idj(i32 %d) {
  %l = load i64, ptr @_local_id_x
  ret i64 %l
}

declare void @pocl.barrier() #1

define void @_Z7barrierj(i32 %flags) {
  call void @pocl.barrier()
  ret void
}

define i64 @idx() {
  %g = call i64 @_Z13get_global_idj(i32 0) #0
  ret i64 %g
}

define void @sync() {
  call void @_Z7barrierj(i32 1) #0
  ret void
}

define float @twice(float %x) {
  %y = fadd float %x, %x
  ret float %y
}

define spir_kernel void @k(ptr %a) {
  %i = call i64 @idx() #0
  call void @sync()
  %v = call float @twice(float 1.0)
  %p = getelementptr inbounds float, ptr %a, i64 %i
  store float %v, ptr %p
  ret void
}

attributes #0 = { memory(none) }
attributes #1 = { nounwind willreturn }

; CHECK-LABEL: define internal i64 @idx()
; CHECK-SAME: #[[IDX:[0-9]+]]
; CHECK-LABEL: define internal void @sync()
; CHECK-SAME: #[[SYNC:[0-9]+]]
; CHECK-LABEL: define internal float @twice(
; CHECK-SAME: #[[TWICE:[0-9]+]]
; CHECK-DAG: attributes #[[IDX]] = { alwaysinline {{.*}}}
; CHECK-DAG: attributes #[[SYNC]] = { alwaysinline {{.*}}}
; CHECK-DAG: attributes #[[TWICE]] = { {{.*}}"iss-inline-late"{{.*}}}
