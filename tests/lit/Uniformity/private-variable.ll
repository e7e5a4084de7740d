; A private variable that is only loaded and stored (a volatile counter, as
; in pocl's tests/workgroup/implicit_barriers.cl) is uniform while every
; store to it stores a uniform value in a block all work-items execute; one
; store of the local id, or one store under a divergent branch, makes its
; loads divergent. A private variable whose address escapes is divergent.
;
; RUN: pocl-iss-opt -passes='iss-prepare,function(print<iss-uniformity>)' -iss-kernel=k -iss-local-size=8,1,1 -S %s -o /dev/null 2>&1 | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

@_local_id_x = external global i64

declare void @use(ptr)

define spir_kernel void @k(ptr %out, i32 %n) {
entry:
  %a = alloca i32
  %b = alloca i32
  %c = alloca i32
  %e = alloca i32
  %l = load i64, ptr @_local_id_x
  %l32 = trunc i64 %l to i32
  store volatile i32 %n, ptr %a
  store i32 %n, ptr %b
  store i32 %n, ptr %c
  call void @use(ptr %e)
  %odd = icmp ne i32 %l32, 0
  br i1 %odd, label %div, label %join

div:
  store i32 %l32, ptr %b
  store i32 7, ptr %c
  br label %join

join:
  %va = load volatile i32, ptr %a
  %vb = load i32, ptr %b
  %vc = load i32, ptr %c
  %ve = load i32, ptr %e
  store i32 %va, ptr %out
  ret void
}

; CHECK-LABEL: Work-item uniformity of 'k':
; CHECK: uniform: {{.*}}%a = alloca
; CHECK: divergent:{{.*}}%b = alloca
; CHECK: divergent:{{.*}}%c = alloca
; CHECK: divergent:{{.*}}%e = alloca
; CHECK: block %join: uniform
; CHECK-NEXT: uniform: {{.*}}%va = load volatile
; CHECK-NEXT: divergent:{{.*}}%vb = load
; CHECK-NEXT: divergent:{{.*}}%vc = load
; CHECK-NEXT: divergent:{{.*}}%ve = load
