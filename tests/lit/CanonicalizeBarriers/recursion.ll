; iss-barriers: the inliner never unrolls a recursion (inlining a recursive
; callee would never end). After iss-prepare the recursive
; functions are calls in the kernel; their non-recursive callee is inlined
; into the kernel where the kernel calls it. Run alone on functions marked
; always_inline by hand, the inline history stops it all the same: each
; cycle is entered once and the call that closes it stays a call.
;
; int leaf(int n) { return n * 2; }
; int fact(int n) { return n <= 1 ? leaf(1) : n * fact(n - 1); }
; int is_odd(int n);
; int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
; int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
; __kernel void k(__global int *a) {
;   a[0] = fact(a[1]) + is_even(a[2]) + leaf(a[3]);
; }
;
; RUN: pocl-iss-opt -passes=iss-prepare,iss-barriers -iss-kernel=k -iss-local-size=1,1,1 -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-barriers -iss-kernel=k -iss-local-size=1,1,1 -S %s | FileCheck %s --check-prefix=FORCED

target triple = "x86_64-pc-linux-gnu"

define spir_func i32 @leaf(i32 %n) #0 {
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

define spir_func i32 @is_even(i32 %n) #0 {
  %z = icmp eq i32 %n, 0
  %m = sub i32 %n, 1
  %o = call spir_func i32 @is_odd(i32 %m)
  %r = select i1 %z, i32 1, i32 %o
  ret i32 %r
}

define spir_func i32 @is_odd(i32 %n) #0 {
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
  %p3 = getelementptr inbounds i32, ptr %a, i64 3
  %v3 = load i32, ptr %p3
  %l = call spir_func i32 @leaf(i32 %v3)
  %s = add i32 %f, %e
  %t = add i32 %s, %l
  store i32 %t, ptr %a
  ret void
}

attributes #0 = { alwaysinline }

; CHECK-LABEL: define internal i32 @fact(
; CHECK: call i32 @fact(
; CHECK-LABEL: define void @k(
; CHECK: call i32 @fact(
; CHECK: call i32 @is_even(
; CHECK-NOT: call i32 @leaf(
; CHECK: ret void

; FORCED-LABEL: define spir_kernel void @k(
; FORCED-NOT: call {{.*}}@leaf(
; FORCED: call spir_func i32 @fact(
; FORCED-NOT: call {{.*}}@leaf(
; FORCED: call spir_func i32 @is_even(
; FORCED-NOT: call {{.*}}@is_odd(
; FORCED-NOT: call {{.*}}@leaf(
; FORCED: ret void
