; iss-safe-division: every integer division or remainder whose divisor is
; not a constant known to be safe gets a divisor that cannot trap (OpenCL C
; 1.2, section 6.3.b: an unspecified value, never an exception). Unsigned:
; 0 becomes 1. Signed: 0 and -1 become 1, and a quotient by -1 is the
; wrapping negation. Vectors are guarded lane by lane, library functions
; as well as kernels.
;
; __kernel void k(__global int *q, __global uint *u, int x, int d, uint ux,
;                 uint ud) {
;   q[0] = x / d; q[1] = x % d; u[0] = ux / ud; u[1] = ux % ud;
; }
;
; RUN: pocl-iss-opt -passes=iss-safe-division -S %s | FileCheck %s
; RUN: pocl-iss-opt -passes=iss-safe-division,instcombine -S %s | FileCheck %s --check-prefix=FOLD
; The divisions by one value share its guard, at the value's definition
; (an argument's at the entry): a quotient and a remainder by it are one
; division once common subexpressions are merged.
; RUN: pocl-iss-opt -passes=iss-safe-division,early-cse -S %s | FileCheck %s --check-prefix=CSE

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @k(
; CSE-LABEL: define void @k(
define void @k(ptr %q, ptr %u, i32 %x, i32 %d, i32 %ux, i32 %ud) {
; CHECK: %div.d = freeze i32 %d
; CHECK-NEXT: %[[P1:.*]] = add i32 %div.d, 1
; CHECK-NEXT: %div.unsafe = icmp ult i32 %[[P1]], 2
; CHECK-NEXT: %div.safe = select i1 %div.unsafe, i32 1, i32 %div.d
; CHECK-NEXT: %[[D2:div.d[0-9]+]] = freeze i32 %ud
; CHECK-NEXT: %[[U2:div.unsafe[0-9]+]] = icmp eq i32 %[[D2]], 0
; CHECK-NEXT: %[[Z2:.*]] = zext i1 %[[U2]] to i32
; CHECK-NEXT: %[[S2:div.safe[0-9]+]] = or i32 %[[D2]], %[[Z2]]
; CHECK-NEXT: %sq = sdiv i32 %x, %div.safe
; CHECK-NEXT: %div.minus.one = icmp eq i32 %div.d, -1
; CHECK-NEXT: %div.neg = sub i32 0, %x
; CHECK-NEXT: %div.result = select i1 %div.minus.one, i32 %div.neg, i32 %sq
; CHECK-NEXT: store i32 %div.result, ptr %q
  %sq = sdiv i32 %x, %d
  store i32 %sq, ptr %q
; A remainder by -1 is 0, which x % 1 gives: no negation. A remainder is
; x - (x / d) * d, from the quotient (the loop vectorizer declined whole
; tiles with a remainder by the guarded divisor, not with its quotient).
; CHECK-NOT: freeze
; CHECK: %[[Q1:rem.q]] = sdiv i32 %x, %div.safe
; CHECK-NEXT: %[[M1:rem.qd]] = mul i32 %[[Q1]], %div.safe
; CHECK-NEXT: %sr = sub i32 %x, %[[M1]]{{$}}
; CHECK-NOT: srem
; CHECK: getelementptr
  %sr = srem i32 %x, %d
  %q1 = getelementptr inbounds i32, ptr %q, i64 1
  store i32 %sr, ptr %q1
; CHECK-NOT: freeze
; CHECK: %uq = udiv i32 %ux, %[[S2]]
; CHECK-NEXT: store i32 %uq, ptr %u
  %uq = udiv i32 %ux, %ud
  store i32 %uq, ptr %u
; CHECK-NOT: freeze
; CHECK: %[[Q3:rem.q[0-9]+]] = udiv i32 %ux, %[[S2]]
; CHECK-NEXT: %[[M3:rem.qd[0-9]+]] = mul i32 %[[Q3]], %[[S2]]
; CHECK-NEXT: %ur = sub i32 %ux, %[[M3]]{{$}}
  %ur = urem i32 %ux, %ud
  %u1 = getelementptr inbounds i32, ptr %u, i64 1
  store i32 %ur, ptr %u1
; CSE-COUNT-1: sdiv i32
; CSE-NOT: sdiv i32
; CSE-COUNT-1: udiv i32
; CSE-NOT: udiv i32
; CSE: ret void
  ret void
}

; Vector divisions (int4, char4, ulong2), lane by lane.
; CHECK-LABEL: define <4 x i32> @vec_sdiv(
; CHECK: %div.d = freeze <4 x i32> %d
; CHECK-NEXT: add <4 x i32> %div.d, <i32 1, i32 1, i32 1, i32 1>
; CHECK-NEXT: %div.unsafe = icmp ult <4 x i32> %{{.*}}, <i32 2, i32 2, i32 2, i32 2>
; CHECK-NEXT: %div.safe = select <4 x i1> %div.unsafe, <4 x i32> <i32 1, i32 1, i32 1, i32 1>, <4 x i32> %div.d
; CHECK-NEXT: %r = sdiv <4 x i32> %x, %div.safe
; CHECK-NEXT: %div.minus.one = icmp eq <4 x i32> %div.d, <i32 -1, i32 -1, i32 -1, i32 -1>
; CHECK-NEXT: %div.neg = sub <4 x i32> zeroinitializer, %x
; CHECK-NEXT: %div.result = select <4 x i1> %div.minus.one, <4 x i32> %div.neg, <4 x i32> %r
; CHECK-NEXT: ret <4 x i32> %div.result
define <4 x i32> @vec_sdiv(<4 x i32> %x, <4 x i32> %d) {
  %r = sdiv <4 x i32> %x, %d
  ret <4 x i32> %r
}

; CHECK-LABEL: define <4 x i8> @vec_srem_char(
; CHECK: select <4 x i1> %div.unsafe, <4 x i8> <i8 1, i8 1, i8 1, i8 1>, <4 x i8> %div.d
; CHECK-NEXT: %rem.q = sdiv <4 x i8> %x, %div.safe
; CHECK-NEXT: %rem.qd = mul <4 x i8> %rem.q, %div.safe
; CHECK-NEXT: %r = sub <4 x i8> %x, %rem.qd{{$}}
; CHECK-NEXT: ret <4 x i8> %r
define <4 x i8> @vec_srem_char(<4 x i8> %x, <4 x i8> %d) {
  %r = srem <4 x i8> %x, %d
  ret <4 x i8> %r
}

; CHECK-LABEL: define <2 x i64> @vec_udiv_ulong(
; CHECK: %div.unsafe = icmp eq <2 x i64> %div.d, zeroinitializer
; CHECK-NEXT: %[[Z:.*]] = zext <2 x i1> %div.unsafe to <2 x i64>
; CHECK-NEXT: %div.safe = or <2 x i64> %div.d, %[[Z]]
; CHECK-NEXT: %r = udiv <2 x i64> %x, %div.safe
define <2 x i64> @vec_udiv_ulong(<2 x i64> %x, <2 x i64> %d) {
  %r = udiv <2 x i64> %x, %d
  ret <2 x i64> %r
}

; A constant divisor that traps in some lane is guarded too; constant
; folding leaves a safe constant, and a quotient by -1 becomes a negation.
; CHECK-LABEL: define <2 x i32> @const_lanes(
; CHECK: sdiv <2 x i32> %x, %div.safe
; CHECK-LABEL: define i32 @const_minus_one(
; CHECK: %div.neg = sub i32 0, %x
; FOLD-LABEL: define <2 x i32> @const_lanes(
; FOLD: sdiv <2 x i32> %x, <i32 7, i32 1>
; FOLD-LABEL: define i32 @const_minus_one(
; FOLD-NEXT: %div.neg = sub i32 0, %x
; FOLD-NEXT: ret i32 %div.neg
define <2 x i32> @const_lanes(<2 x i32> %x) {
  %r = sdiv <2 x i32> %x, <i32 7, i32 0>
  ret <2 x i32> %r
}
define i32 @const_minus_one(i32 %x) {
  %r = sdiv i32 %x, -1
  ret i32 %r
}

; Negative cases: constants that cannot trap keep their division (and so
; LLVM's multiply-by-reciprocal lowering): non-zero unsigned divisors (an
; unsigned -1 is UINT_MAX), signed ones other than 0 and -1, whole vectors
; of them. No other instruction is touched.
; CHECK-LABEL: define void @safe_constants(
; CHECK-NOT: freeze
; CHECK-NOT: select
; CHECK: ret void
define void @safe_constants(ptr %p, i32 %x, i64 %y, <4 x i16> %v) {
  %a = udiv i32 %x, 7
  %b = urem i32 %x, -1
  %c = sdiv i32 %x, -3
  %e = srem i64 %y, 10
  %f = sdiv <4 x i16> %v, <i16 2, i16 -2, i16 3, i16 32767>
  %g = udiv <4 x i16> %v, <i16 1, i16 2, i16 3, i16 -1>
  %h = add i32 %a, %b
  %i = mul i32 %c, %h
  store i32 %i, ptr %p
  store i64 %e, ptr %p
  store <4 x i16> %f, ptr %p
  store <4 x i16> %g, ptr %p
  ret void
}

; What InstCombine makes of the guard keeps the division safe: the unsigned
; one stays d | (d == 0) (scalar evolution reads a select or umax(d, 1) as
; umax and expands quotients by it again where it rewrites loops), and a
; divisor it proves non-zero (and not -1) loses its guard.
; FOLD-LABEL: define i32 @known_odd(
; FOLD-NOT: select
; FOLD: %o = or i32 %{{.*}}, 1
; FOLD-NEXT: %r = udiv i32 %x, %o
; FOLD-NEXT: ret i32 %r
define i32 @known_odd(i32 %x, i32 %d) {
  %o = or i32 %d, 1
  %r = udiv i32 %x, %o
  ret i32 %r
}
; FOLD-LABEL: define i32 @unsigned_variable(
; FOLD: %[[U:.*]] = icmp eq i32 %div.d, 0
; FOLD-NEXT: %[[Z:.*]] = zext i1 %[[U]] to i32
; FOLD-NEXT: %[[S:.*]] = or i32 %div.d, %[[Z]]
; FOLD-NEXT: %r = udiv i32 %x, %[[S]]
define i32 @unsigned_variable(i32 %x, i32 %d) {
  %r = udiv i32 %x, %d
  ret i32 %r
}

; A divisor an instruction computes: its guard right after it, shared by
; the divisions in the blocks it dominates.
; CHECK-LABEL: define i32 @computed(
; CHECK: %w = add i32 %a, 1
; CHECK-NEXT: %div.d = freeze i32 %w
; CHECK-NEXT: %div.unsafe = icmp eq i32 %div.d, 0
; CHECK-NEXT: %[[Z:.*]] = zext i1 %div.unsafe to i32
; CHECK-NEXT: %div.safe = or i32 %div.d, %[[Z]]
; CHECK: then:
; CHECK-NEXT: %y = udiv i32 %x, %div.safe
; CHECK-NEXT: %rem.q = udiv i32 %x, %div.safe
; CHECK-NOT: freeze
; CHECK: ret i32
define i32 @computed(i32 %x, i32 %a, i1 %c) {
entry:
  %w = add i32 %a, 1
  br i1 %c, label %then, label %done
then:
  %y = udiv i32 %x, %w
  %r = urem i32 %x, %w
  %s = add i32 %y, %r
  br label %done
done:
  %v = phi i32 [ 0, %entry ], [ %s, %then ]
  ret i32 %v
}
