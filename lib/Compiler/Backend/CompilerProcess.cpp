//===- CompilerProcess.cpp - The tiered launch's compiles, in a process ---===//
// SPDX-License-Identifier: MIT
//
// A tiered first launch (POCL_ISS_TIERED) runs `vec`'s code, compiled at
// enqueue as pocl compiles, and hands POCL_ISS_MODE's compile to the
// compiler process: pocl-iss-compile, a small program beside the library
// that loads this very library (so that its keys and code are the
// application's) and serves the compiles one at a time.
//
// Why a process, and not a thread. A compile that runs beside the
// application shares every piece of process-wide state with it, and LLVM's
// are not all safe to share with an exit: function-local statics made
// during a compile (TargetLibraryInfoImpl::getLibFunc's index of library
// names, first built by the first O3 run, which on a warm kernel cache is
// the background compile's) are destroyed by exit() while the compile still
// reads them, so that a process ending with a compile under way crashed or
// died of an LLVM error. Joining the compile first made exit wait for it,
// for minutes on big kernels. In a process of its own a compile shares
// nothing, the application's exit waits for nothing, and a compile that
// crashes takes only the compiler process down (the launches keep `vec`'s
// code).
//
// The protocol, over a socket pair (fd 3 in the compiler process):
//   application -> compiler  "B <hash> <bytes>\n<program binary>"
//                            "K <id> <hash> <lx> <ly> <lz> m|w <kernel>\n"
//   compiler -> application  "R <id> ok|fail <bytes>\n<entry or error>"
// (m: POCL_ISS_MODE's code; w: the kernel as written, a candidate of the
// measured choice)
// where an entry is encoded as the kernel cache holds it (KernelCache.h),
// checked against the application's own key when it arrives. The
// application reads replies without blocking, at its launches.
//
// The compiler process runs at a lower priority than the application
// (nice +10). When the application is gone it ends at once without the
// kernel cache; with it, it finishes the compiles it was asked for, at the
// idle priority and for ten minutes at most, so that the application's
// next run finds them cached: one compiler process per cache folder, the
// others ending at once (a lock in the folder).
//
//===----------------------------------------------------------------------===//

#include "CompilerInternal.h"

#include "pocl-iss/Env.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <dlfcn.h>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <set>
#include <spawn.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace iss {

/// Sends all of \p Data; false when the peer is gone. Never raises SIGPIPE.
static bool sendAll(int Fd, const char *Data, size_t Size) {
  while (Size) {
    ssize_t N = send(Fd, Data, Size, MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= static_cast<size_t>(N);
  }
  return true;
}

static bool sendAll(int Fd, const std::string &S) {
  return sendAll(Fd, S.data(), S.size());
}

/// Takes one message off the front of \p In if it is there whole: its
/// header line (without the newline) and, where the header ends in a byte
/// count, that many bytes after it. \p Counted says whether it does.
static bool takeMessage(std::string &In, bool (*Counted)(const std::string &),
                        std::string &Header, std::string &Body) {
  size_t End = In.find('\n');
  if (End == std::string::npos)
    return false;
  std::string H = In.substr(0, End);
  size_t Bytes = 0;
  if (Counted(H)) {
    size_t Space = H.rfind(' ');
    Bytes = std::strtoull(H.c_str() + Space + 1, nullptr, 10);
    if (In.size() - End - 1 < Bytes)
      return false;
  }
  Header = std::move(H);
  Body = In.substr(End + 1, Bytes);
  In.erase(0, End + 1 + Bytes);
  return true;
}

//===----------------------------------------------------------------------===//
// The application's side
//===----------------------------------------------------------------------===//

namespace {
/// The application's connection to its compiler process. Never destroyed
/// (nothing at exit has to touch it); a forked child starts a process of
/// its own and gives up the parent's.
class CompilerProcess {
public:
  static CompilerProcess &get() {
    static CompilerProcess *P = [] {
      auto *P = new CompilerProcess;
      pthread_atfork([] { get().M.lock(); }, [] { get().M.unlock(); },
                     [] { get().forked(); });
      return P;
    }();
    return *P;
  }

  /// Queues \p C; false when no compiler process can run here.
  bool submit(const std::shared_ptr<BackgroundCompile> &C) {
    std::lock_guard<std::mutex> L(M);
    if (Fd < 0 && !spawn()) {
      if (Unavailable)
        return false;
      C->St = BackgroundCompile::Status::Failed;
      C->Reply = "the compiler process could not be started";
      return true;
    }
    const std::vector<uint8_t> &Bin = *C->Binary;
    std::string Hash = identityHex(llvm::StringRef(
        reinterpret_cast<const char *>(Bin.data()), Bin.size()));
    bool Ok = true;
    if (!Sent.count(Hash)) {
      std::string H = "B " + Hash + " " + std::to_string(Bin.size()) + "\n";
      Ok = sendAll(Fd, H) &&
           sendAll(Fd, reinterpret_cast<const char *>(Bin.data()), Bin.size());
      if (Ok)
        Sent.insert(Hash);
    }
    uint64_t Id = NextId++;
    Ok = Ok && sendAll(Fd, "K " + std::to_string(Id) + " " + Hash + " " +
                               std::to_string(C->Local[0]) + " " +
                               std::to_string(C->Local[1]) + " " +
                               std::to_string(C->Local[2]) + " " +
                               (C->Written ? "w " : "m ") + C->Kernel + "\n");
    if (!Ok) {
      lost("the compiler process is gone");
      C->St = BackgroundCompile::Status::Failed;
      C->Reply = "the compiler process is gone";
      return true;
    }
    Waiting[Id] = C;
    return true;
  }

  std::mutex M;

  /// Takes in what the compiler process sent, without blocking.
  void pump() {
    if (Fd < 0)
      return;
    char Buf[1 << 16];
    for (;;) {
      ssize_t N = recv(Fd, Buf, sizeof(Buf), MSG_DONTWAIT);
      if (N > 0) {
        In.append(Buf, static_cast<size_t>(N));
        continue;
      }
      if (N < 0 && errno == EINTR)
        continue;
      if (N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        break;
      dispatch();
      lost(N == 0 ? "the compiler process ended"
                  : "the connection to the compiler process failed");
      return;
    }
    dispatch();
  }

private:
  void dispatch() {
    std::string Header, Body;
    while (takeMessage(
        In, [](const std::string &) { return true; }, Header, Body)) {
      unsigned long long Id = 0;
      char How[8] = {0};
      if (std::sscanf(Header.c_str(), "R %llu %7s", &Id, How) != 2)
        continue;
      auto It = Waiting.find(Id);
      if (It == Waiting.end())
        continue;
      if (auto C = It->second.lock()) {
        C->St = std::strcmp(How, "ok") == 0 ? BackgroundCompile::Status::Done
                                            : BackgroundCompile::Status::Failed;
        C->Reply = std::move(Body);
      }
      Waiting.erase(It);
    }
  }

  /// The compiler process is gone: what it had not answered failed.
  void lost(const char *Why) {
    debugLog(DbgLLVM, "%s; %zu compiles unanswered keep vec's code", Why,
             Waiting.size());
    disconnect(Why);
    waitpid(Pid, nullptr, WNOHANG);
  }

  /// Closes this process's end of the connection; what was not answered
  /// failed with \p Why.
  void disconnect(const char *Why) {
    if (Fd >= 0)
      close(Fd);
    Fd = -1;
    for (auto &[Id, W] : Waiting)
      if (auto C = W.lock()) {
        C->St = BackgroundCompile::Status::Failed;
        C->Reply = Why;
      }
    Waiting.clear();
    Sent.clear();
    In.clear();
  }

  /// In a forked child, with M held by the fork: the connection is the
  /// parent's. Closing this process's copy leaves the parent's working.
  void forked() {
    disconnect("the process was forked");
    M.unlock();
  }

  /// Where pocl-iss-compile is: beside the library this code is in.
  static std::string libraryPath() {
    Dl_info Info;
    if (!dladdr(reinterpret_cast<void *>(&CompilerProcess::libraryPath),
                &Info) ||
        !Info.dli_fname)
      return "";
    return Info.dli_fname;
  }

  bool spawn() {
    if (Unavailable || Spawns >= MaxSpawns)
      return false;
    std::string Lib = libraryPath();
    std::string Dir = Lib.substr(0, Lib.rfind('/') + 1);
    std::string Tool = Dir + "pocl-iss/pocl-iss-compile";
    if (Lib.empty() || access(Tool.c_str(), X_OK) != 0) {
      Unavailable = true;
      debugLog(DbgLLVM,
               "no compiler process (%s not found): tiered launches compile "
               "the mode's code at enqueue",
               Tool.c_str());
      return false;
    }
    int Sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Sv) != 0)
      return false;
    // The compiler's end becomes fd 3: keep it off 3 first, so that the
    // dup2 really makes a descriptor without close-on-exec.
    if (Sv[1] == 3) {
      int Moved = fcntl(Sv[1], F_DUPFD_CLOEXEC, 4);
      close(Sv[1]);
      Sv[1] = Moved;
    }
    posix_spawn_file_actions_t FA;
    posix_spawn_file_actions_init(&FA);
    posix_spawn_file_actions_adddup2(&FA, Sv[1], 3);
    posix_spawn_file_actions_addopen(&FA, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&FA, 1, "/dev/null", O_WRONLY, 0);
    // Its log lines go where the application's go, under POCL_DEBUG only:
    // otherwise a compiler process finishing its compiles after the
    // application would hold the application's stderr open.
    if (!settings().DebugMask)
      posix_spawn_file_actions_addopen(&FA, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclosefrom_np(&FA, 4);
    std::string Fd3 = "3";
    char *Argv[] = {const_cast<char *>(Tool.c_str()),
                    const_cast<char *>(Lib.c_str()), Fd3.data(), nullptr};
    pid_t Child = 0;
    int E = posix_spawn(&Child, Tool.c_str(), &FA, nullptr, Argv, environ);
    posix_spawn_file_actions_destroy(&FA);
    close(Sv[1]);
    ++Spawns;
    if (E != 0) {
      close(Sv[0]);
      debugLog(DbgLLVM, "cannot start %s: %s", Tool.c_str(), std::strerror(E));
      return false;
    }
    Fd = Sv[0];
    Pid = Child;
    debugLog(DbgLLVM, "compiler process %d started", int(Child));
    return true;
  }

  /// A compiler process that dies this often (a kernel that crashes LLVM,
  /// say) is not started again: the launches keep `vec`'s code.
  static constexpr unsigned MaxSpawns = 8;

  int Fd = -1;
  pid_t Pid = -1;
  unsigned Spawns = 0;
  bool Unavailable = false;
  uint64_t NextId = 1;
  std::set<std::string> Sent; ///< binaries the compiler process holds
  std::map<uint64_t, std::weak_ptr<BackgroundCompile>> Waiting;
  std::string In; ///< bytes received and not yet a whole message
};
} // namespace

std::shared_ptr<BackgroundCompile>
BackgroundCompile::start(std::shared_ptr<const std::vector<uint8_t>> Binary,
                         const std::string &Kernel, const size_t Local[3],
                         bool Written) {
  auto C = std::make_shared<BackgroundCompile>();
  C->Binary = std::move(Binary);
  C->Kernel = Kernel;
  C->Written = Written;
  for (unsigned D = 0; D < 3; ++D)
    C->Local[D] = Local[D] ? Local[D] : 1;
  if (!CompilerProcess::get().submit(C))
    return nullptr;
  if (Written)
    debugLog(DbgLLVM,
             "kernel %s, local size %zu,%zu,%zu: the kernel as written "
             "compiling behind the launches, a candidate",
             Kernel.c_str(), C->Local[0], C->Local[1], C->Local[2]);
  else
    debugLog(DbgLLVM,
             "kernel %s, local size %zu,%zu,%zu: the first launch runs vec's "
             "code, mode %s compiling behind it",
             Kernel.c_str(), C->Local[0], C->Local[1], C->Local[2],
             modeName(settings().IssMode));
  return C;
}

BackgroundCompile::Status
BackgroundCompile::poll(std::shared_ptr<CompiledKernel> &Out,
                        std::string &Err) {
  CompilerProcess &P = CompilerProcess::get();
  std::lock_guard<std::mutex> L(P.M);
  P.pump();
  if (St == Status::Done && !Result) {
    std::string E;
    Result = loadModeEntry(*Binary, Kernel, Local, Written, Reply, E);
    Reply.clear();
    if (Result) {
      debugLog(DbgLLVM,
               "kernel %s, local size %zu,%zu,%zu, mode %s: from the "
               "compiler process%s",
               Kernel.c_str(), Local[0], Local[1], Local[2],
               Written ? "vec as written" : modeName(settings().IssMode),
               Written ? "" : ", the launches run it from now on");
    } else {
      St = Status::Failed;
      Reply = E;
    }
  }
  if (St == Status::Failed)
    Err = Reply;
  Out = Result;
  return St;
}

//===----------------------------------------------------------------------===//
// The compiler process's side
//===----------------------------------------------------------------------===//

namespace {
/// What the compiler process has been asked, shared by the thread that
/// reads the requests and the one that compiles.
struct Requests {
  struct Compile {
    std::string Id;
    std::shared_ptr<const std::vector<uint8_t>> Binary;
    size_t Local[3];
    std::string Kernel;
    bool Written = false;
  };
  std::mutex M;
  std::condition_variable CV;
  std::deque<Compile> Queue;
  bool ApplicationGone = false;
};
} // namespace

/// How long a compiler process may go on after its application is gone.
static constexpr unsigned LingerMinutes = 10;

/// Whether this compiler process may go on compiling into the kernel cache
/// after its application is gone: the cache is on and no other compiler
/// process does so for it (a lock held until this process ends), so that
/// runs of an application one after the other on a busy machine leave one
/// compiler process behind, not one each.
static bool lingerLock() {
  const Settings &S = settings();
  if (!S.KernelCache)
    return false;
  std::string Path = S.CacheDir + "/compiler.lock";
  int Fd = open(Path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (Fd < 0)
    return false;
  if (flock(Fd, LOCK_EX | LOCK_NB) != 0) {
    close(Fd);
    return false;
  }
  return true; // Fd stays open: the lock is this process's until it ends
}

/// Reads requests from \p Fd until the application closes it.
static void readRequests(int Fd, Requests &R) {
  std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> Binaries;
  std::string In, Header, Body;
  char Buf[1 << 16];
  for (;;) {
    while (takeMessage(
        In, [](const std::string &H) { return H.rfind("B ", 0) == 0; }, Header,
        Body)) {
      char Hash[64] = {0};
      if (Header.rfind("B ", 0) == 0) {
        if (std::sscanf(Header.c_str(), "B %63s", Hash) == 1)
          Binaries[Hash] = std::make_shared<const std::vector<uint8_t>>(
              Body.begin(), Body.end());
        continue;
      }
      Requests::Compile C;
      char Id[32] = {0}, Kernel[1024] = {0}, What[2] = {0};
      if (std::sscanf(Header.c_str(), "K %31s %63s %zu %zu %zu %1s %1023s", Id,
                      Hash, &C.Local[0], &C.Local[1], &C.Local[2], What,
                      Kernel) != 7)
        continue;
      C.Id = Id;
      C.Kernel = Kernel;
      C.Written = What[0] == 'w';
      auto It = Binaries.find(Hash);
      if (It != Binaries.end())
        C.Binary = It->second;
      std::lock_guard<std::mutex> L(R.M);
      R.Queue.push_back(std::move(C));
      R.CV.notify_one();
    }
    ssize_t N = recv(Fd, Buf, sizeof(Buf), 0);
    if (N > 0) {
      In.append(Buf, static_cast<size_t>(N));
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    break;
  }
  // Nobody will load what is left but a later run, through the cache: one
  // compiler process per cache finishes its compiles, for a bounded time.
  if (!lingerLock())
    _exit(0);
  {
    std::lock_guard<std::mutex> L(R.M);
    R.ApplicationGone = true;
    R.CV.notify_one();
  }
  std::this_thread::sleep_for(std::chrono::minutes(LingerMinutes));
  _exit(0);
}

int BackgroundCompile::serve(int Fd) {
  // Below the application's threads; inherited by the reader thread.
  errno = 0;
  if (nice(10) == -1 && errno)
    debugLog(DbgLLVM, "compiler process: nice: %s", std::strerror(errno));
  auto *R = new Requests; // outlives both threads: _exit ends the process
  std::thread(readRequests, Fd, std::ref(*R)).detach();
  bool Idle = false;
  for (;;) {
    Requests::Compile C;
    {
      std::unique_lock<std::mutex> L(R->M);
      R->CV.wait(L, [&] { return R->ApplicationGone || !R->Queue.empty(); });
      if (R->Queue.empty())
        break;
      C = std::move(R->Queue.front());
      R->Queue.pop_front();
      if (R->ApplicationGone && !Idle) {
        // Only for a later run now: on cores nobody else wants.
        sched_param P{};
        sched_setscheduler(0, SCHED_IDLE, &P);
        Idle = true;
      }
    }
    auto Reply = [&](const char *How, const std::string &Body) {
      sendAll(Fd, "R " + C.Id + " " + How + " " + std::to_string(Body.size()) +
                      "\n" + Body);
    };
    std::string Error = "no program binary for the compile";
    if (!C.Binary ||
        !compileModeEntry(
            *C.Binary, C.Kernel, C.Local, C.Written,
            [&](const std::string &Entry) { Reply("ok", Entry); }, Error))
      Reply("fail", Error);
  }
  // LLVM's statics are not torn down: nothing is left to flush.
  fflush(stderr);
  _exit(0);
}

} // namespace iss

/// pocl-iss-compile's entry into the library it loaded
/// (tools/pocl-iss-compile).
extern "C" __attribute__((visibility("default"))) int
pocl_iss_compiler_serve(int Fd) {
  return iss::BackgroundCompile::serve(Fd);
}
