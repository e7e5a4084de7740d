; iss-rint: pocl 3.1's library rounds to nearest even with SLEEF's old
; xrintf/xrint, d + 0.5 less its adjusted fraction, copysigned, unless d is
; infinite or at least 2^23 (2^52):
;   x = d + 0.5; fr = x - (int)x;
;   fr = (fr < 0 || (fr == 0 && ((int)x & 1))) ? fr + 1 : fr;
;   x = d == nextafter(0.5, 1) ? 0 : x;
;   return (isinf(d) || |d| >= 2^23) ? d : copysign(x - fr, d);
; in scalar code with branches (the phi), in vector code with selects (the
; select; the masks as <2 x i64>), the double one with its fraction in two
; steps. Where the target has SSE 4.1, the value that picks d or the
; copysign becomes llvm.rint of d; the rest is left for DCE. Not so
; without SSE 4.1 (llvm.rint is a libm call there), nor for a rounding
; with another constant.
;
; RUN: pocl-iss-opt -passes=iss-rint -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; The scalar float rint, as in the library (_Z8_cl_rintf).
; CHECK-LABEL: define float @rintf(
; CHECK: Sleef_rintf.exit:
; CHECK-NEXT: %r = call float @llvm.rint.f32(float %d)
; CHECK-NEXT: ret float %r
define float @rintf(float %d) #0 {
  %x = fadd float %d, 5.000000e-01
  %i = fptosi float %x to i32
  %t = sitofp i32 %i to float
  %fr = fsub float %x, %t
  %neg = fcmp olt float %fr, 0.000000e+00
  br i1 %neg, label %plus1, label %tie

tie:
  %odd.b = and i32 %i, 1
  %odd = icmp ne i32 %odd.b, 0
  %zero = fcmp oeq float %fr, 0.000000e+00
  %up = select i1 %zero, i1 %odd, i1 false
  br i1 %up, label %plus1, label %adj

plus1:
  %fr1 = fadd float %fr, 1.000000e+00
  br label %adj

adj:
  %f = phi float [ %fr1, %plus1 ], [ %fr, %tie ]
  %half = fcmp oeq float %d, 0x3FE0000020000000
  %s = select i1 %half, float 0.000000e+00, float %x
  %notinf = fcmp une float %d, 0x7FF0000000000000
  %notninf = fcmp une float %d, 0xFFF0000000000000
  %finite = and i1 %notinf, %notninf
  br i1 %finite, label %small, label %Sleef_rintf.exit

small:
  %bits = bitcast float %d to i32
  %abs.b = and i32 %bits, 2147483647
  %abs = bitcast i32 %abs.b to float
  %lt = fcmp ult float %abs, 0x4160000000000000
  br i1 %lt, label %copysign, label %Sleef_rintf.exit

copysign:
  %diff = fsub float %s, %f
  %diff.b = bitcast float %diff to i32
  %mag = and i32 %diff.b, 2147483647
  %sign = and i32 %bits, -2147483648
  %or = or i32 %mag, %sign
  %v = bitcast i32 %or to float
  br label %Sleef_rintf.exit

Sleef_rintf.exit:
  %r = phi float [ %v, %copysign ], [ %d, %small ], [ %d, %adj ]
  ret float %r
}

; The double one (_Z8_cl_rintd): the fraction in two steps, 2^52.
; CHECK-LABEL: define double @rintd(
; CHECK: done:
; CHECK-NEXT: %r = call double @llvm.rint.f64(double %d)
; CHECK-NEXT: ret double %r
define double @rintd(double %d) #0 {
  %x = fadd double %d, 5.000000e-01
  %hi = fmul double %x, 0x3E00000000000000
  %hi.i = fptosi double %hi to i32
  %hi.f = sitofp i32 %hi.i to double
  %hi.s = fmul double %hi.f, 0x41E0000000000000
  %lo = fsub double %x, %hi.s
  %i = fptosi double %lo to i32
  %t = sitofp i32 %i to double
  %fr = fsub double %lo, %t
  %neg = fcmp olt double %fr, 0.000000e+00
  br i1 %neg, label %plus1, label %tie

tie:
  %odd.b = and i32 %i, 1
  %odd = icmp ne i32 %odd.b, 0
  %zero = fcmp oeq double %fr, 0.000000e+00
  %up = select i1 %zero, i1 %odd, i1 false
  br i1 %up, label %plus1, label %adj

plus1:
  %fr1 = fadd double %fr, 1.000000e+00
  br label %adj

adj:
  %f = phi double [ %fr1, %plus1 ], [ %fr, %tie ]
  %half = fcmp oeq double %d, 0x3FE0000000000001
  %s = select i1 %half, double 0.000000e+00, double %x
  %notinf = fcmp une double %d, 0x7FF0000000000000
  %notninf = fcmp une double %d, 0xFFF0000000000000
  %finite = and i1 %notinf, %notninf
  br i1 %finite, label %small, label %done

small:
  %bits = bitcast double %d to i64
  %abs.b = and i64 %bits, 9223372036854775807
  %abs = bitcast i64 %abs.b to double
  %lt = fcmp ult double %abs, 0x4330000000000000
  br i1 %lt, label %copysign, label %done

copysign:
  %diff = fsub double %s, %f
  %diff.b = bitcast double %diff to i64
  %mag = and i64 %diff.b, 9223372036854775807
  %sign = and i64 %bits, -9223372036854775808
  %or = or i64 %mag, %sign
  %v = bitcast i64 %or to double
  br label %done

done:
  %r = phi double [ %v, %copysign ], [ %d, %small ], [ %d, %adj ]
  ret double %r
}

; The vector one (_Z8_cl_rintDv4_f, and inlined into the image writes
; after a scaling): selects, x86's truncation, masks as <2 x i64>. The
; conversion after it stays.
; CHECK-LABEL: define <4 x i32> @write_snorm(
; CHECK: %r = call <4 x float> @llvm.rint.v4f32(<4 x float> %d)
; CHECK-NEXT: %c = fptosi <4 x float> %r to <4 x i32>
; CHECK-NEXT: ret <4 x i32> %c
define <4 x i32> @write_snorm(<4 x float> %colour) #0 {
  %d = fmul <4 x float> %colour, <float 1.270000e+02, float 1.270000e+02, float 1.270000e+02, float 1.270000e+02>
  %x = fadd <4 x float> %d, <float 5.000000e-01, float 5.000000e-01, float 5.000000e-01, float 5.000000e-01>
  %i = tail call <4 x i32> @llvm.x86.sse2.cvttps2dq(<4 x float> %x)
  %t = sitofp <4 x i32> %i to <4 x float>
  %fr = fsub <4 x float> %x, %t
  %neg = fcmp olt <4 x float> %fr, zeroinitializer
  %zero = fcmp oeq <4 x float> %fr, zeroinitializer
  %odd = trunc <4 x i32> %i to <4 x i1>
  %tie = select <4 x i1> %odd, <4 x i1> %zero, <4 x i1> zeroinitializer
  %up = or <4 x i1> %tie, %neg
  %fr1 = fadd <4 x float> %fr, <float 1.000000e+00, float 1.000000e+00, float 1.000000e+00, float 1.000000e+00>
  %f = select <4 x i1> %up, <4 x float> %fr1, <4 x float> %fr
  %half = fcmp oeq <4 x float> %d, <float 0x3FE0000020000000, float 0x3FE0000020000000, float 0x3FE0000020000000, float 0x3FE0000020000000>
  %s = select <4 x i1> %half, <4 x float> zeroinitializer, <4 x float> %x
  %bits = bitcast <4 x float> %d to <2 x i64>
  %abs.b = and <2 x i64> %bits, <i64 9223372034707292159, i64 9223372034707292159>
  %abs = bitcast <2 x i64> %abs.b to <4 x float>
  %inf = fcmp oeq <4 x float> %abs, <float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000, float 0x7FF0000000000000>
  %big = fcmp oge <4 x float> %abs, <float 0x4160000000000000, float 0x4160000000000000, float 0x4160000000000000, float 0x4160000000000000>
  %keep = or <4 x i1> %big, %inf
  %diff = fsub <4 x float> %s, %f
  %diff.b = bitcast <4 x float> %diff to <2 x i64>
  %mag = and <2 x i64> %diff.b, <i64 9223372034707292159, i64 9223372034707292159>
  %sign = and <2 x i64> %bits, <i64 -9223372034707292160, i64 -9223372034707292160>
  %or = or <2 x i64> %mag, %sign
  %v = bitcast <2 x i64> %or to <4 x float>
  %r = select <4 x i1> %keep, <4 x float> %d, <4 x float> %v
  %c = fptosi <4 x float> %r to <4 x i32>
  ret <4 x i32> %c
}

; Without SSE 4.1 the library's code stays.
; CHECK-LABEL: define float @rintf_sse2(
; CHECK-NOT: llvm.rint
; CHECK: %r = phi float [ %v, %copysign ], [ %d, %entry ]
define float @rintf_sse2(float %d) #1 {
entry:
  %x = fadd float %d, 5.000000e-01
  %i = fptosi float %x to i32
  %t = sitofp i32 %i to float
  %fr = fsub float %x, %t
  %fr1 = fadd float %fr, 1.000000e+00
  %neg = fcmp olt float %fr, 0.000000e+00
  %f = select i1 %neg, float %fr1, float %fr
  %half = fcmp oeq float %d, 0x3FE0000020000000
  %s = select i1 %half, float 0.000000e+00, float %x
  %bits = bitcast float %d to i32
  %abs.b = and i32 %bits, 2147483647
  %abs = bitcast i32 %abs.b to float
  %lt = fcmp ult float %abs, 0x4160000000000000
  br i1 %lt, label %copysign, label %exit

copysign:
  %diff = fsub float %s, %f
  %diff.b = bitcast float %diff to i32
  %mag = and i32 %diff.b, 2147483647
  %sign = and i32 %bits, -2147483648
  %or = or i32 %mag, %sign
  %v = bitcast i32 %or to float
  br label %exit

exit:
  %r = phi float [ %v, %copysign ], [ %d, %entry ]
  ret float %r
}

; The same shape with 0.5 itself for the special value is not SLEEF's
; rint: left alone.
; CHECK-LABEL: define float @not_rint(
; CHECK-NOT: llvm.rint
; CHECK: %r = phi float [ %v, %copysign ], [ %d, %entry ]
define float @not_rint(float %d) #0 {
entry:
  %x = fadd float %d, 5.000000e-01
  %i = fptosi float %x to i32
  %t = sitofp i32 %i to float
  %fr = fsub float %x, %t
  %fr1 = fadd float %fr, 1.000000e+00
  %neg = fcmp olt float %fr, 0.000000e+00
  %f = select i1 %neg, float %fr1, float %fr
  %half = fcmp oeq float %d, 5.000000e-01
  %s = select i1 %half, float 0.000000e+00, float %x
  %bits = bitcast float %d to i32
  %abs.b = and i32 %bits, 2147483647
  %abs = bitcast i32 %abs.b to float
  %lt = fcmp ult float %abs, 0x4160000000000000
  br i1 %lt, label %copysign, label %exit

copysign:
  %diff = fsub float %s, %f
  %diff.b = bitcast float %diff to i32
  %mag = and i32 %diff.b, 2147483647
  %sign = and i32 %bits, -2147483648
  %or = or i32 %mag, %sign
  %v = bitcast i32 %or to float
  br label %exit

exit:
  %r = phi float [ %v, %copysign ], [ %d, %entry ]
  ret float %r
}

declare <4 x i32> @llvm.x86.sse2.cvttps2dq(<4 x float>)

attributes #0 = { "target-cpu"="haswell" "target-features"="+avx,+avx2,+sse4.1,+sse4.2" }
attributes #1 = { "target-cpu"="x86-64" "target-features"="+sse,+sse2" }
