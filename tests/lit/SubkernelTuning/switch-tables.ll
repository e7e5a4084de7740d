; iss-switch-tables: a subkernel's switch of 1024 cases or more that picks
; a value becomes a lookup table before O3 (whose SimplifyCFG runs are
; quadratic in such a switch in LLVM 19); a smaller switch, and any switch
; outside the subkernels, is left to O3.
;
; RUN: python3 %S/huge-switch.py 1024 > %t.huge.ll
; RUN: pocl-iss-opt -passes=iss-switch-tables -S %t.huge.ll | FileCheck %s --check-prefix=HUGE
; RUN: python3 %S/huge-switch.py 1023 > %t.small.ll
; RUN: pocl-iss-opt -passes=iss-switch-tables -S %t.small.ll | FileCheck %s --check-prefix=SMALL

; HUGE: @switch.table.__iss_sub_k_0 = private unnamed_addr constant [1024 x i32]
; HUGE-LABEL: define i32 @__iss_sub_k_0(
; HUGE-NOT: switch i32
; HUGE: getelementptr inbounds [1024 x i32], ptr @switch.table.__iss_sub_k_0
; HUGE-LABEL: define i32 @other(
; HUGE: switch i32 %i, label %done [

; SMALL-NOT: @switch.table
; SMALL-LABEL: define i32 @__iss_sub_k_0(
; SMALL: switch i32 %i, label %done [
