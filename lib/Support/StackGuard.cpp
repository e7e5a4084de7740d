//===- StackGuard.cpp - Running deep recursion on a large, guarded stack --===//
// SPDX-License-Identifier: MIT
//
// runOnLargeStack (include/pocl-iss/StackGuard.h). Only a SIGSEGV at an
// address in the guarded thread's own guard or reserve, on that thread, is
// ours; the handler finds the thread in a fixed table (no allocation, no
// thread-local storage that might be allocated on first use in a handler)
// and uses only async-signal-safe calls (mprotect, siglongjmp).
//
//===----------------------------------------------------------------------===//

#include "pocl-iss/StackGuard.h"

#include <algorithm>
#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <link.h>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace iss {

namespace {

/// Inaccessible pages at the bottom of the usable stack: the fault that
/// ends a run happens here, or in the guard below once the reserve has been
/// opened for a fault inside the C library.
constexpr size_t ReserveBytes = 256 << 10;
/// glibc's guard below the stack: large enough that no frame jumps it.
constexpr size_t GuardBytes = 1 << 20;
/// The smallest stack tried when the system refuses a larger one.
constexpr size_t MinStackBytes = 16 << 20;

/// A thread running under the guard.
struct Guarded {
  const std::function<void()> *Fn = nullptr;
  pthread_t Thread{};
  sigjmp_buf Jump;
  uintptr_t GuardLow = 0;    ///< the lowest address of glibc's guard
  uintptr_t ReserveLow = 0;  ///< the lowest usable stack address
  uintptr_t ReserveHigh = 0; ///< the end of the reserve
  volatile sig_atomic_t ReserveOpen = 0;
  StackRun Result = StackRun::Completed;
};

constexpr unsigned MaxGuarded = 64;
std::atomic<Guarded *> Active[MaxGuarded];

/// Executable segments of the C library and the dynamic loader: code that
/// may hold a lock (malloc's arena, the loader's) when it faults.
struct Range {
  uintptr_t Low, High;
};
constexpr unsigned MaxRanges = 16;
Range Unsafe[MaxRanges];
unsigned NumUnsafe = 0;

std::mutex InstallMutex;
struct sigaction Previous;

} // namespace

static bool isUnsafeObject(const char *Path) {
  if (!Path)
    return false;
  const char *Slash = std::strrchr(Path, '/');
  const char *Base = Slash ? Slash + 1 : Path;
  return !std::strncmp(Base, "libc.so", 7) || !std::strncmp(Base, "libc-", 5) ||
         !std::strncmp(Base, "ld-linux", 8) || !std::strncmp(Base, "ld-2.", 5);
}

static int collectUnsafeRanges(dl_phdr_info *Info, size_t, void *) {
  if (!isUnsafeObject(Info->dlpi_name))
    return 0;
  for (unsigned I = 0; I < Info->dlpi_phnum && NumUnsafe < MaxRanges; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type == PT_LOAD && (P.p_flags & PF_X))
      Unsafe[NumUnsafe++] = {Info->dlpi_addr + P.p_vaddr,
                             Info->dlpi_addr + P.p_vaddr + P.p_memsz};
  }
  return 0;
}

/// The program counter of the faulting instruction, 0 where unknown.
static uintptr_t faultingPC(void *Context) {
  auto *U = static_cast<ucontext_t *>(Context);
#if defined(__x86_64__)
  return static_cast<uintptr_t>(U->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(U->uc_mcontext.pc);
#else
  (void)U;
  return 0;
#endif
}

static bool inUnsafeCode(void *Context) {
  uintptr_t PC = faultingPC(Context);
  for (unsigned I = 0; I < NumUnsafe; ++I)
    if (PC >= Unsafe[I].Low && PC < Unsafe[I].High)
      return true;
  return false;
}

/// Hands a fault that is not ours to the handler installed before.
static void chain(int Sig, siginfo_t *Info, void *Context) {
  if (Previous.sa_flags & SA_SIGINFO) {
    if (Previous.sa_sigaction) {
      Previous.sa_sigaction(Sig, Info, Context);
      return;
    }
  } else if (Previous.sa_handler != SIG_DFL && Previous.sa_handler != SIG_IGN) {
    Previous.sa_handler(Sig);
    return;
  }
  // The default action: back to it, and the faulting instruction faults
  // again when the handler returns.
  sigaction(Sig, &Previous, nullptr);
}

static void onFault(int Sig, siginfo_t *Info, void *Context) {
  auto Addr = reinterpret_cast<uintptr_t>(Info->si_addr);
  pthread_t Self = pthread_self();
  for (std::atomic<Guarded *> &Slot : Active) {
    Guarded *G = Slot.load(std::memory_order_acquire);
    if (!G || !pthread_equal(G->Thread, Self))
      continue;
    if (Addr < G->GuardLow || Addr >= G->ReserveHigh)
      break;
    if (Addr >= G->ReserveLow && !G->ReserveOpen && inUnsafeCode(Context)) {
      G->ReserveOpen = 1;
      mprotect(reinterpret_cast<void *>(G->ReserveLow),
               G->ReserveHigh - G->ReserveLow, PROT_READ | PROT_WRITE);
      return;
    }
    siglongjmp(G->Jump, 1);
  }
  chain(Sig, Info, Context);
}

/// Installs onFault for SIGSEGV, unless it is installed already; another
/// handler installed since is chained to.
static void install() {
  std::lock_guard<std::mutex> L(InstallMutex);
  static bool RangesKnown = false;
  if (!RangesKnown) {
    dl_iterate_phdr(collectUnsafeRanges, nullptr);
    RangesKnown = true;
  }
  struct sigaction Current;
  if (sigaction(SIGSEGV, nullptr, &Current) != 0)
    return;
  if ((Current.sa_flags & SA_SIGINFO) && Current.sa_sigaction == onFault)
    return;
  Previous = Current;
  struct sigaction Ours;
  std::memset(&Ours, 0, sizeof(Ours));
  Ours.sa_sigaction = onFault;
  Ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&Ours.sa_mask);
  sigaction(SIGSEGV, &Ours, nullptr);
}

/// Records \p G's reserve (the lowest ReserveBytes of the stack at \p Low,
/// below a guard of \p Guard bytes) and claims a slot of Active for it, so
/// that the signal handler finds it; -1 when every slot is taken.
static int claimSlot(Guarded &G, void *Low, size_t Guard) {
  G.ReserveLow = reinterpret_cast<uintptr_t>(Low);
  G.ReserveHigh = G.ReserveLow + ReserveBytes;
  G.GuardLow = G.ReserveLow - Guard;
  for (unsigned I = 0; I < MaxGuarded; ++I) {
    Guarded *Expected = nullptr;
    if (Active[I].compare_exchange_strong(Expected, &G,
                                          std::memory_order_acq_rel))
      return static_cast<int>(I);
  }
  return -1;
}

static void *guardedMain(void *Arg) {
  Guarded &G = *static_cast<Guarded *>(Arg);
  G.Thread = pthread_self();
  // A synchronous SIGSEGV while blocked would kill the process outright.
  sigset_t Segv;
  sigemptyset(&Segv);
  sigaddset(&Segv, SIGSEGV);
  pthread_sigmask(SIG_UNBLOCK, &Segv, nullptr);

  void *Low = nullptr;
  size_t Size = 0, Guard = 0;
  pthread_attr_t Attr;
  if (pthread_getattr_np(G.Thread, &Attr) == 0) {
    pthread_attr_getstack(&Attr, &Low, &Size);
    pthread_attr_getguardsize(&Attr, &Guard);
    pthread_attr_destroy(&Attr);
  }
  // The handler runs on an alternate stack: the thread's own is used up.
  const size_t AltBytes = (64 << 10) + SIGSTKSZ;
  void *const Alt = mmap(nullptr, AltBytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  stack_t AltStack;
  AltStack.ss_sp = Alt;
  AltStack.ss_flags = 0;
  AltStack.ss_size = AltBytes;
  const bool HasAlt = Alt != MAP_FAILED && sigaltstack(&AltStack, nullptr) == 0;
  const bool Armed = HasAlt && Low && Size > 4 * ReserveBytes &&
                     mprotect(Low, ReserveBytes, PROT_NONE) == 0;
  // Set once, before sigsetjmp, so that its value survives the longjmp.
  const int Slot = Armed ? claimSlot(G, Low, Guard) : -1;

  if (sigsetjmp(G.Jump, 1) == 0)
    (*G.Fn)();
  else
    G.Result = StackRun::Exhausted;

  if (Slot >= 0)
    Active[Slot].store(nullptr, std::memory_order_release);
  // glibc keeps small stacks for later threads: give back what it gave.
  if (Armed)
    mprotect(Low, ReserveBytes, PROT_READ | PROT_WRITE);
  if (HasAlt) {
    stack_t Off;
    std::memset(&Off, 0, sizeof(Off));
    Off.ss_flags = SS_DISABLE;
    sigaltstack(&Off, nullptr);
  }
  if (Alt != MAP_FAILED)
    munmap(Alt, AltBytes);
  return nullptr;
}

StackRun runOnLargeStack(const std::function<void()> &Fn, size_t StackBytes) {
  install();
  Guarded G;
  G.Fn = &Fn;
  size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t Bytes = std::max<size_t>(StackBytes, 1 << 20);
  Bytes = (Bytes + Page - 1) / Page * Page;
  while (true) {
    pthread_attr_t Attr;
    if (pthread_attr_init(&Attr) != 0)
      return StackRun::NoThread;
    pthread_attr_setstacksize(&Attr, Bytes);
    pthread_attr_setguardsize(&Attr, GuardBytes);
    pthread_t T;
    int Err = pthread_create(&T, &Attr, guardedMain, &G);
    pthread_attr_destroy(&Attr);
    if (Err == 0) {
      pthread_join(T, nullptr);
      return G.Result;
    }
    if (Bytes / 2 < MinStackBytes)
      return StackRun::NoThread;
    Bytes = Bytes / 2 / Page * Page;
  }
}

} // namespace iss
