; iss-codegen-attrs: every subkernel (__iss_sub_*) asks the back end for
; the vector width it was built for, at least 128 bits and at most the
; native width; with a forced width (POCL_ISS_VECTOR_WIDTH,
; -iss-vector-width) the native one. Each is tuned for the CPU it runs on,
; and on AMD Zen prefers scalar loads to gathers. Other functions are left
; alone.
;
; RUN: pocl-iss-opt -passes=iss-codegen-attrs -iss-tune-cpu=znver3 -S %s | FileCheck %s --check-prefixes=CHECK,ZEN
; RUN: pocl-iss-opt -passes=iss-codegen-attrs -iss-tune-cpu=skylake -S %s | FileCheck %s --check-prefixes=CHECK,SKX
; RUN: pocl-iss-opt -passes=iss-codegen-attrs -iss-tune-cpu=generic -S %s | FileCheck %s --check-prefixes=CHECK,GENERIC
; RUN: pocl-iss-opt -passes=iss-codegen-attrs -iss-tune-cpu=skylake -iss-vector-width=4 -S %s | FileCheck %s --check-prefix=FORCED

target triple = "x86_64-pc-linux-gnu"

; CHECK: define void @__iss_sub_k_0(ptr %args, ptr %ctx) [[NARROW:#[0-9]+]]
; CHECK: define void @__iss_sub_k_1(ptr %args, ptr %ctx) [[TWO:#[0-9]+]]
; CHECK: define void @__iss_sub_k_2(ptr %args, ptr %ctx) [[WIDE:#[0-9]+]]
; CHECK: define void @helper() [[HELPER:#[0-9]+]]
define void @__iss_sub_k_0(ptr %args, ptr %ctx) #0 {
  ret void
}
define void @__iss_sub_k_1(ptr %args, ptr %ctx) #1 {
  ret void
}
define void @__iss_sub_k_2(ptr %args, ptr %ctx) #2 {
  ret void
}
define void @helper() #0 {
  ret void
}

; Four lanes of 32 bits: 128. Two: still 128. Sixteen: the native width
; (256 with AVX2, 512 with AVX-512).
; CHECK-DAG: attributes [[TWO]] = { {{.*}}"prefer-vector-width"="128"
; CHECK-DAG: attributes [[WIDE]] = { {{.*}}"prefer-vector-width"="{{256|512}}"
; CHECK-DAG: attributes [[HELPER]] = { "iss-vector-width"="4" "target-features"="+avx2" }
; ZEN-DAG: attributes [[NARROW]] = { "iss-vector-width"="4" "prefer-vector-width"="128" "target-features"="+avx2,+prefer-no-gather,+prefer-no-scatter" "tune-cpu"="znver3" }
; SKX-DAG: attributes [[NARROW]] = { "iss-vector-width"="4" "prefer-vector-width"="128" "target-features"="+avx2" "tune-cpu"="skylake" }
; GENERIC-DAG: attributes [[NARROW]] = { "iss-vector-width"="4" "prefer-vector-width"="128" "target-features"="+avx2" }

; FORCED: attributes #0 = { "iss-vector-width"="4" "prefer-vector-width"="{{256|512}}"
attributes #0 = { "iss-vector-width"="4" "target-features"="+avx2" }
attributes #1 = { "iss-vector-width"="2" "target-features"="+avx2" }
attributes #2 = { "iss-vector-width"="16" "target-features"="+avx2" }
