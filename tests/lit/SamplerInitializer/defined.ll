; iss-sampler-init leaves alone a __translate_sampler_initializer that the
; module defines.
;
; RUN: pocl-iss-opt -passes=iss-sampler-init -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @k(
; CHECK-NEXT: %s = call ptr @__translate_sampler_initializer(i32 37)
; CHECK-NEXT: store ptr %s, ptr %out
define void @k(ptr %out) {
  %s = call ptr @__translate_sampler_initializer(i32 37)
  store ptr %s, ptr %out
  ret void
}

; CHECK-LABEL: define ptr @__translate_sampler_initializer(
define ptr @__translate_sampler_initializer(i32 %bits) {
  ret ptr null
}
