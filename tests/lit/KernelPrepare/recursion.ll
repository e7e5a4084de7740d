; iss-prepare: functions on a call cycle stay real calls, as on
; pocl: a self-recursive function and two mutually recursive ones are not
; marked always_inline, and lose an always_inline the source gave them; a
; function they call that is not on a cycle is marked like any other.
;
; int leaf(int n) { return n * 2; }
; __attribute__((always_inline)) int fact(int n) {
;   return n <= 1 ? leaf(1) : n * fact(n - 1);
; }
; int is_odd(int n);
; int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
; int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
; __kernel void k(__global int *a) { a[0] = fact(a[1]) + is_even(a[2]); }
;
; RUN: pocl-iss-opt -passes=iss-prepare -iss-kernel=k -iss-local-size=1,1,1 -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

define spir_func i32 @leaf(i32 %n) {
  %r = mul i32 %n, 2
  ret i32 %r
}

define spir_func i32 @fact(i32 %n) #0 {
entry:
  %small = icmp sle i32 %n, 1
  br i1 %small, label %base, label %rec

base:
  %one = call spir_func i32 @leaf(i32 1)
  ret i32 %one

rec:
  %m = sub i32 %n, 1
  %f = call spir_func i32 @fact(i32 %m)
  %r = mul i32 %n, %f
  ret i32 %r
}

define spir_func i32 @is_even(i32 %n) {
  %z = icmp eq i32 %n, 0
  %m = sub i32 %n, 1
  %o = call spir_func i32 @is_odd(i32 %m)
  %r = select i1 %z, i32 1, i32 %o
  ret i32 %r
}

define spir_func i32 @is_odd(i32 %n) {
  %z = icmp eq i32 %n, 0
  %m = sub i32 %n, 1
  %e = call spir_func i32 @is_even(i32 %m)
  %r = select i1 %z, i32 0, i32 %e
  ret i32 %r
}

define spir_kernel void @k(ptr %a) {
  %p1 = getelementptr inbounds i32, ptr %a, i64 1
  %v1 = load i32, ptr %p1
  %f = call spir_func i32 @fact(i32 %v1)
  %p2 = getelementptr inbounds i32, ptr %a, i64 2
  %v2 = load i32, ptr %p2
  %e = call spir_func i32 @is_even(i32 %v2)
  %s = add i32 %f, %e
  store i32 %s, ptr %a
  ret void
}

attributes #0 = { alwaysinline }

; CHECK: define internal i32 @leaf(i32 %n) #[[LATE:[0-9]+]]
; CHECK: define internal i32 @fact(i32 %n) #[[REC:[0-9]+]] {
; CHECK: define internal i32 @is_even(i32 %n) #[[REC]] {
; CHECK: define internal i32 @is_odd(i32 %n) #[[REC]] {
; CHECK: define void @k(ptr {{.*}}%a)
; The leaf touches no memory: inlined late (iss-hoist-uniform); the
; recursive functions are never inlined.
; CHECK-DAG: attributes #[[LATE]] = { {{.*}}"iss-inline-late" }
; CHECK-DAG: attributes #[[REC]] = { nofree {{.*}}}
