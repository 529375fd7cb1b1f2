// libpartita_powercut.so: an LD_PRELOAD shim that journals, for every write
// to a file under $PARTITA_POWERCUT_DIR, what the write changes, so that
// `partita_powercut restore` can later drop every write not made durable by
// fsync/fdatasync, as a power cut would (powercut_journal.h states the model
// and the record layout). It can also make syncs fail with EIO after a given
// number of successes.
//
// Without both $PARTITA_POWERCUT_DIR and $PARTITA_POWERCUT_JOURNAL the shim
// only passes calls through. Thread model: any thread; one mutex orders the
// journal, the table of watched descriptors, and each watched write with
// its undo record (the record is on the journal before the write happens).
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "powercut_journal.h"

namespace {

using namespace partita::powercut;

constexpr int kMaxFds = 1 << 16;

template <typename F>
F Real(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

// The real calls (resolved once, at load).
struct RealCalls {
  ssize_t (*write)(int, const void*, size_t) = Real<decltype(write)>("write");
  ssize_t (*pwrite)(int, const void*, size_t, off_t) = Real<decltype(pwrite)>("pwrite");
  ssize_t (*pwrite64)(int, const void*, size_t, off64_t) = Real<decltype(pwrite64)>("pwrite64");
  ssize_t (*writev)(int, const struct iovec*, int) = Real<decltype(writev)>("writev");
  ssize_t (*pwritev)(int, const struct iovec*, int, off_t) = Real<decltype(pwritev)>("pwritev");
  int (*ftruncate)(int, off_t) = Real<decltype(ftruncate)>("ftruncate");
  int (*ftruncate64)(int, off64_t) = Real<decltype(ftruncate64)>("ftruncate64");
  int (*fallocate)(int, int, off_t, off_t) = Real<decltype(fallocate)>("fallocate");
  int (*fallocate64)(int, int, off64_t, off64_t) = Real<decltype(fallocate64)>("fallocate64");
  int (*posix_fallocate)(int, off_t, off_t) = Real<decltype(posix_fallocate)>("posix_fallocate");
  int (*posix_fallocate64)(int, off64_t, off64_t) = Real<decltype(posix_fallocate64)>("posix_fallocate64");
  int (*fsync)(int) = Real<decltype(fsync)>("fsync");
  int (*fdatasync)(int) = Real<decltype(fdatasync)>("fdatasync");
  int (*close)(int) = Real<decltype(close)>("close");
  int (*open)(const char*, int, ...) = Real<decltype(open)>("open");
  int (*open64)(const char*, int, ...) = Real<decltype(open64)>("open64");
  int (*openat)(int, const char*, int, ...) = Real<decltype(openat)>("openat");
  int (*openat64)(int, const char*, int, ...) = Real<decltype(openat64)>("openat64");
  int (*creat)(const char*, mode_t) = Real<decltype(creat)>("creat");
  int (*creat64)(const char*, mode_t) = Real<decltype(creat64)>("creat64");
};

RealCalls& Calls() {
  static RealCalls calls;
  return calls;
}

struct State {
  bool active = false;
  std::string dir;  // watched directory, absolute, with a trailing '/'
  int journal = -1;
  long syncs_before_eio = -1;  // -1: never fail
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  std::vector<std::string> paths = std::vector<std::string>(kMaxFds);  // under mu; empty: not watched
  // watched[fd] mirrors !paths[fd].empty(), read without the lock so that
  // calls on other descriptors pass through without taking it.
  std::unique_ptr<std::atomic<bool>[]> watched = std::make_unique<std::atomic<bool>[]>(kMaxFds);
};

State& S() {
  static State state;
  return state;
}

class Lock {
 public:
  Lock() { pthread_mutex_lock(&S().mu); }
  ~Lock() { pthread_mutex_unlock(&S().mu); }
};

void Die(const char* what) {
  char message[512];
  const int n = snprintf(message, sizeof message, "partita_powercut: %s: %s\n", what, strerror(errno));
  Calls().write(2, message, n > 0 ? static_cast<size_t>(n) : 0);
  _exit(99);
}

void Append(const void* bytes, size_t size) {
  const char* p = static_cast<const char*>(bytes);
  while (size > 0) {
    const ssize_t n = Calls().write(S().journal, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) Die("writing the journal");
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void AppendHeader(RecordKind kind, const std::string& path) {
  const uint8_t k = kind;
  const uint32_t length = static_cast<uint32_t>(path.size());
  Append(&k, 1);
  Append(&length, sizeof length);
  Append(path.data(), path.size());
}

// Journals what changing [offset, offset + length) of `fd` (and its size)
// will overwrite. REQUIRES: the lock is held and `fd` is watched.
void RecordUndo(int fd, uint64_t offset, uint64_t length) {
  struct stat st;
  if (fstat(fd, &st) != 0) Die("fstat of a watched file");
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  const uint64_t end = offset + length < size ? offset + length : size;
  const uint32_t old_length = offset < end ? static_cast<uint32_t>(end - offset) : 0;
  std::vector<char> old(old_length);
  for (uint32_t done = 0; done < old_length;) {
    const ssize_t n = pread(fd, old.data() + done, old_length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) Die("reading the bytes a write replaces");
    done += static_cast<uint32_t>(n);
  }
  AppendHeader(kUndo, S().paths[fd]);
  Append(&offset, sizeof offset);
  Append(&size, sizeof size);
  Append(&old_length, sizeof old_length);
  Append(old.data(), old.size());
}

// A hint without the lock; callers that act on it re-check with Held().
bool Watched(int fd) {
  return S().active && fd >= 0 && fd < kMaxFds && S().watched[fd].load(std::memory_order_acquire);
}

// REQUIRES: the lock is held.
bool Held(int fd) { return !S().paths[fd].empty(); }

void SetPath(int fd, std::string path) {
  S().watched[fd].store(!path.empty(), std::memory_order_release);
  S().paths[fd] = std::move(path);
}

void Watch(int fd) {
  if (!S().active || fd < 0 || fd >= kMaxFds) return;
  char link[64];
  char target[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return;
  const std::string path(target, static_cast<size_t>(n));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
  Lock lock;
  SetPath(fd, path.compare(0, S().dir.size(), S().dir) == 0 ? path : std::string());
}

uint64_t Position(int fd) {
  if (fcntl(fd, F_GETFL) & O_APPEND) {
    struct stat st;
    return fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  }
  const off_t at = lseek(fd, 0, SEEK_CUR);
  return at < 0 ? 0 : static_cast<uint64_t>(at);
}

uint64_t Total(const struct iovec* iov, int count) {
  uint64_t total = 0;
  for (int i = 0; i < count; ++i) total += iov[i].iov_len;
  return total;
}

// Runs a sync: fails it with EIO once the allowed number have succeeded,
// and journals a sync record when it succeeds.
int Sync(int fd, int (*real)(int)) {
  if (!Watched(fd)) return real(fd);
  Lock lock;
  if (!Held(fd)) return real(fd);
  if (S().syncs_before_eio == 0) {
    errno = EIO;
    return -1;
  }
  const int r = real(fd);
  if (r == 0) {
    AppendHeader(kSync, S().paths[fd]);
    if (S().syncs_before_eio > 0) --S().syncs_before_eio;
  }
  return r;
}

__attribute__((constructor)) void Start() {
  Calls();
  const char* dir = getenv(kDirEnv);
  const char* journal = getenv(kJournalEnv);
  if (dir == nullptr || journal == nullptr) return;
  char resolved[PATH_MAX];
  if (realpath(dir, resolved) == nullptr) Die("resolving $PARTITA_POWERCUT_DIR");
  S().dir = std::string(resolved) + "/";
  S().journal = Calls().open(journal, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (S().journal < 0) Die("opening $PARTITA_POWERCUT_JOURNAL");
  if (const char* after = getenv(kSyncFailsAfterEnv)) S().syncs_before_eio = atol(after);
  S().active = true;
}

mode_t ModeArgument(int flags, va_list args) {
  return (flags & (O_CREAT | O_TMPFILE)) != 0 ? static_cast<mode_t>(va_arg(args, int)) : 0;
}

}  // namespace

extern "C" {

int open(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = ModeArgument(flags, args);
  va_end(args);
  const int fd = Calls().open(path, flags, mode);
  Watch(fd);
  return fd;
}

int open64(const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = ModeArgument(flags, args);
  va_end(args);
  const int fd = Calls().open64(path, flags, mode);
  Watch(fd);
  return fd;
}

int openat(int dirfd, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = ModeArgument(flags, args);
  va_end(args);
  const int fd = Calls().openat(dirfd, path, flags, mode);
  Watch(fd);
  return fd;
}

int openat64(int dirfd, const char* path, int flags, ...) {
  va_list args;
  va_start(args, flags);
  const mode_t mode = ModeArgument(flags, args);
  va_end(args);
  const int fd = Calls().openat64(dirfd, path, flags, mode);
  Watch(fd);
  return fd;
}

int creat(const char* path, mode_t mode) {
  const int fd = Calls().creat(path, mode);
  Watch(fd);
  return fd;
}

int creat64(const char* path, mode_t mode) {
  const int fd = Calls().creat64(path, mode);
  Watch(fd);
  return fd;
}

int close(int fd) {
  if (Watched(fd)) {
    Lock lock;
    SetPath(fd, std::string());
  }
  return Calls().close(fd);
}

ssize_t write(int fd, const void* bytes, size_t size) {
  if (!Watched(fd)) return Calls().write(fd, bytes, size);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, Position(fd), size);
  return Calls().write(fd, bytes, size);
}

ssize_t pwrite(int fd, const void* bytes, size_t size, off_t offset) {
  if (!Watched(fd)) return Calls().pwrite(fd, bytes, size, offset);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(offset), size);
  return Calls().pwrite(fd, bytes, size, offset);
}

ssize_t pwrite64(int fd, const void* bytes, size_t size, off64_t offset) {
  if (!Watched(fd)) return Calls().pwrite64(fd, bytes, size, offset);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(offset), size);
  return Calls().pwrite64(fd, bytes, size, offset);
}

ssize_t writev(int fd, const struct iovec* iov, int count) {
  if (!Watched(fd)) return Calls().writev(fd, iov, count);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, Position(fd), Total(iov, count));
  return Calls().writev(fd, iov, count);
}

ssize_t pwritev(int fd, const struct iovec* iov, int count, off_t offset) {
  if (!Watched(fd)) return Calls().pwritev(fd, iov, count, offset);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(offset), Total(iov, count));
  return Calls().pwritev(fd, iov, count, offset);
}

int ftruncate(int fd, off_t length) {
  if (!Watched(fd)) return Calls().ftruncate(fd, length);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(length), UINT32_MAX);  // the bytes a shrink cuts off
  return Calls().ftruncate(fd, length);
}

int ftruncate64(int fd, off64_t length) {
  if (!Watched(fd)) return Calls().ftruncate64(fd, length);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(length), UINT32_MAX);
  return Calls().ftruncate64(fd, length);
}

int fallocate(int fd, int mode, off_t offset, off_t length) {
  if (!Watched(fd)) return Calls().fallocate(fd, mode, offset, length);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(offset), 0);  // only the size can change
  return Calls().fallocate(fd, mode, offset, length);
}

int fallocate64(int fd, int mode, off64_t offset, off64_t length) {
  if (!Watched(fd)) return Calls().fallocate64(fd, mode, offset, length);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(offset), 0);
  return Calls().fallocate64(fd, mode, offset, length);
}

int posix_fallocate(int fd, off_t offset, off_t length) {
  if (!Watched(fd)) return Calls().posix_fallocate(fd, offset, length);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(offset), 0);
  return Calls().posix_fallocate(fd, offset, length);
}

int posix_fallocate64(int fd, off64_t offset, off64_t length) {
  if (!Watched(fd)) return Calls().posix_fallocate64(fd, offset, length);
  Lock lock;
  if (Held(fd)) RecordUndo(fd, static_cast<uint64_t>(offset), 0);
  return Calls().posix_fallocate64(fd, offset, length);
}

int fsync(int fd) { return Sync(fd, Calls().fsync); }

int fdatasync(int fd) { return Sync(fd, Calls().fdatasync); }

}  // extern "C"
