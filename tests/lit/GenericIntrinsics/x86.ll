; iss-generic-intrinsics: the x86 vector intrinsics of pocl's kernel
; library become generic IR of the same value, which the Scalarizer splits
; and the loop vectorizer widens; the library's fabs of float4 through
; long2 becomes llvm.fabs, and a vector's first lane read through an
; integer becomes an extractelement. What it does not know stays: the
; scalar max.ss (one lane), a bit mask that is not the sign bits'.
;
; RUN: pocl-iss-opt -passes=iss-generic-intrinsics -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; max and min: the second operand unless the first is greater (less), as
; maxps and minps (NaNs and zeros of either sign included).
; CHECK-LABEL: define <4 x float> @maxmin(
; CHECK-NEXT: [[GT:%.*]] = fcmp ogt <4 x float> %a, %b
; CHECK-NEXT: %m = select <4 x i1> [[GT]], <4 x float> %a, <4 x float> %b
; CHECK-NEXT: [[LT:%.*]] = fcmp olt <4 x double> %c, %d
; CHECK-NEXT: %n = select <4 x i1> [[LT]], <4 x double> %c, <4 x double> %d
; CHECK-NEXT: %s = call <4 x float> @llvm.x86.sse.max.ss(<4 x float> %a, <4 x float> %b)
define <4 x float> @maxmin(<4 x float> %a, <4 x float> %b, <4 x double> %c, <4 x double> %d, ptr %p) {
  %m = call <4 x float> @llvm.x86.sse.max.ps(<4 x float> %a, <4 x float> %b)
  %n = call <4 x double> @llvm.x86.avx.min.pd.256(<4 x double> %c, <4 x double> %d)
  %s = call <4 x float> @llvm.x86.sse.max.ss(<4 x float> %a, <4 x float> %b)
  store <4 x double> %n, ptr %p
  %r = fadd <4 x float> %m, %s
  ret <4 x float> %r
}

; blendv: the mask's sign bit picks the second operand.
; CHECK-LABEL: define <16 x i8> @blend(
; CHECK-NEXT: [[M:%.*]] = bitcast <4 x float> %m to <4 x i32>
; CHECK-NEXT: [[S:%.*]] = icmp slt <4 x i32> [[M]], zeroinitializer
; CHECK-NEXT: %f = select <4 x i1> [[S]], <4 x float> %b, <4 x float> %a
; CHECK-NEXT: store <4 x float> %f, ptr %p
; CHECK-NEXT: [[SB:%.*]] = icmp slt <16 x i8> %bm, zeroinitializer
; CHECK-NEXT: %g = select <16 x i1> [[SB]], <16 x i8> %y, <16 x i8> %x
define <16 x i8> @blend(<4 x float> %a, <4 x float> %b, <4 x float> %m, <16 x i8> %x, <16 x i8> %y, <16 x i8> %bm, ptr %p) {
  %f = call <4 x float> @llvm.x86.sse41.blendvps(<4 x float> %a, <4 x float> %b, <4 x float> %m)
  store <4 x float> %f, ptr %p
  %g = call <16 x i8> @llvm.x86.sse41.pblendvb(<16 x i8> %x, <16 x i8> %y, <16 x i8> %bm)
  ret <16 x i8> %g
}

; round: the immediate's mode (bit 2: the current one, round to nearest
; even in OpenCL; bit 3 only silences the precision exception).
; CHECK-LABEL: define void @round(
; CHECK-NEXT: %f = call <4 x float> @llvm.floor.v4f32(<4 x float> %a)
; CHECK-NEXT: %c = call <4 x float> @llvm.ceil.v4f32(<4 x float> %a)
; CHECK-NEXT: %t = call <2 x double> @llvm.trunc.v2f64(<2 x double> %d)
; CHECK-NEXT: %e = call <8 x float> @llvm.roundeven.v8f32(<8 x float> %w)
; CHECK-NEXT: %r = call <8 x float> @llvm.roundeven.v8f32(<8 x float> %w)
define void @round(<4 x float> %a, <2 x double> %d, <8 x float> %w, ptr %p) {
  %f = call <4 x float> @llvm.x86.sse41.round.ps(<4 x float> %a, i32 9)
  %c = call <4 x float> @llvm.x86.sse41.round.ps(<4 x float> %a, i32 10)
  %t = call <2 x double> @llvm.x86.sse41.round.pd(<2 x double> %d, i32 11)
  %e = call <8 x float> @llvm.x86.avx.round.ps.256(<8 x float> %w, i32 8)
  %r = call <8 x float> @llvm.x86.avx.round.ps.256(<8 x float> %w, i32 4)
  store volatile <4 x float> %f, ptr %p
  store volatile <4 x float> %c, ptr %p
  store volatile <2 x double> %t, ptr %p
  store volatile <8 x float> %e, ptr %p
  store volatile <8 x float> %r, ptr %p
  ret void
}

; cvtt and cvt: int32 by truncation (by rounding to nearest even), the
; instructions' 0x80000000 out of range and for NaNs; from two doubles the
; upper lanes are 0.
; CHECK-LABEL: define void @convert(
; CHECK-NEXT: [[LT:%.*]] = fcmp olt <4 x float> %a, <float 0x41E0000000000000,
; CHECK-NEXT: [[GE:%.*]] = fcmp oge <4 x float> %a, <float 0xC1E0000000000000,
; CHECK-NEXT: [[IN:%.*]] = and <4 x i1> [[GE]], [[LT]]
; CHECK-NEXT: [[I:%.*]] = fptosi <4 x float> %a to <4 x i32>
; CHECK-NEXT: %t = select <4 x i1> [[IN]], <4 x i32> [[I]], <4 x i32> <i32 -2147483648,
; CHECK-NEXT: [[R:%.*]] = call <4 x float> @llvm.roundeven.v4f32(<4 x float> %a)
; CHECK: fptosi <4 x float> [[R]] to <4 x i32>
; CHECK: [[D:%.*]] = select <2 x i1> {{%.*}}, <2 x i32> {{%.*}}, <2 x i32> <i32 -2147483648, i32 -2147483648>
; CHECK-NEXT: %p = shufflevector <2 x i32> [[D]], <2 x i32> zeroinitializer, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
define void @convert(<4 x float> %a, <2 x double> %d, ptr %q) {
  %t = call <4 x i32> @llvm.x86.sse2.cvttps2dq(<4 x float> %a)
  %n = call <4 x i32> @llvm.x86.sse2.cvtps2dq(<4 x float> %a)
  %p = call <4 x i32> @llvm.x86.sse2.cvttpd2dq(<2 x double> %d)
  store volatile <4 x i32> %t, ptr %q
  store volatile <4 x i32> %n, ptr %q
  store volatile <4 x i32> %p, ptr %q
  ret void
}

; fabs of float4 as the library writes it: the sign bits cleared through
; long2. A mask that clears another bit is no fabs.
; CHECK-LABEL: define <4 x float> @fabs(
; CHECK-NEXT: %l = bitcast <4 x float> %a to <2 x i64>
; CHECK-NEXT: %m = and <2 x i64> %l, <i64 9223372034707292159, i64 9223372034707292159>
; CHECK-NEXT: %r = call <4 x float> @llvm.fabs.v4f32(<4 x float> %a)
; CHECK-NEXT: %o = and <2 x i64> %l, <i64 9223372034707292158, i64 9223372034707292158>
; CHECK-NEXT: %s = bitcast <2 x i64> %o to <4 x float>
define <4 x float> @fabs(<4 x float> %a) {
  %l = bitcast <4 x float> %a to <2 x i64>
  %m = and <2 x i64> %l, <i64 9223372034707292159, i64 9223372034707292159>
  %r = bitcast <2 x i64> %m to <4 x float>
  %o = and <2 x i64> %l, <i64 9223372034707292158, i64 9223372034707292158>
  %s = bitcast <2 x i64> %o to <4 x float>
  %x = fadd <4 x float> %r, %s
  ret <4 x float> %x
}

; The first lane of a uchar4 read through the i32 the x86-64 ABI passes it
; in (the library's convert_int4, after InstCombine): an extractelement,
; which the Scalarizer splits with the vector. A mask of two lanes, and
; one of a vector, stay.
; CHECK-LABEL: define i32 @firstlane(
; CHECK-NEXT: %w = bitcast <4 x i8> %v to i32
; CHECK-NEXT: [[E:%.*]] = extractelement <4 x i8> %v, i64 0
; CHECK-NEXT: %a = zext i8 [[E]] to i32
; CHECK-NEXT: %b = and i32 %w, 65535
; CHECK-NEXT: %q = bitcast <8 x i8> %u to <2 x i32>
; CHECK-NEXT: %c = and <2 x i32> %q, <i32 255, i32 255>
define i32 @firstlane(<4 x i8> %v, <8 x i8> %u, ptr %p) {
  %w = bitcast <4 x i8> %v to i32
  %a = and i32 %w, 255
  %b = and i32 %w, 65535
  %q = bitcast <8 x i8> %u to <2 x i32>
  %c = and <2 x i32> %q, <i32 255, i32 255>
  store <2 x i32> %c, ptr %p
  %r = add i32 %a, %b
  ret i32 %r
}

declare <4 x float> @llvm.x86.sse.max.ps(<4 x float>, <4 x float>)
declare <4 x float> @llvm.x86.sse.max.ss(<4 x float>, <4 x float>)
declare <4 x double> @llvm.x86.avx.min.pd.256(<4 x double>, <4 x double>)
declare <4 x float> @llvm.x86.sse41.blendvps(<4 x float>, <4 x float>, <4 x float>)
declare <16 x i8> @llvm.x86.sse41.pblendvb(<16 x i8>, <16 x i8>, <16 x i8>)
declare <4 x float> @llvm.x86.sse41.round.ps(<4 x float>, i32)
declare <2 x double> @llvm.x86.sse41.round.pd(<2 x double>, i32)
declare <8 x float> @llvm.x86.avx.round.ps.256(<8 x float>, i32)
declare <4 x i32> @llvm.x86.sse2.cvttps2dq(<4 x float>)
declare <4 x i32> @llvm.x86.sse2.cvtps2dq(<4 x float>)
declare <4 x i32> @llvm.x86.sse2.cvttpd2dq(<2 x double>)
