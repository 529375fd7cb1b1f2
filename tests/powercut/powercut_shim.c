/*
 * A power cut, simulated: an LD_PRELOAD library that journals the bytes
 * each positional write to a file under PARTITA_POWERCUT_PREFIX replaces,
 * and marks the file synced when fsync or fdatasync returns 0. After the
 * process is killed, PowerCut (tests/integration) puts back, newest first,
 * every pre-image recorded after its file's last sync: the files are then
 * what a machine that lost power would have kept (file data only; renames
 * and new files are kept, which the command log syncs at once anyway).
 *
 * Journal (PARTITA_POWERCUT_JOURNAL, appended, never synced: it survives a
 * kill, not a real power cut), little-endian records:
 *   'W' u32 path_len path u64 offset u64 old_size u32 len bytes[len]
 *       (the len bytes at offset before the write; fewer when the file was shorter)
 *   'S' u32 path_len path
 * Thread-safe: one mutex around each journal record and the write it covers.
 *
 * PARTITA_POWERCUT_FAIL_SYNC_AFTER=N makes every fsync or fdatasync of a
 * file under the prefix after the first N fail with EIO (without syncing),
 * for the test of a failing disk.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int journal = -1;
static const char *prefix;
static long fail_sync_after = -1;
static long syncs_seen;

static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

__attribute__((constructor)) static void powercut_init(void) {
  real_pwrite64 = (ssize_t (*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
  real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  prefix = getenv("PARTITA_POWERCUT_PREFIX");
  const char *fail = getenv("PARTITA_POWERCUT_FAIL_SYNC_AFTER");
  if (fail != NULL) {
    fail_sync_after = strtol(fail, NULL, 10);
  }
  const char *path = getenv("PARTITA_POWERCUT_JOURNAL");
  if (prefix != NULL && path != NULL) {
    journal = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
}

/* The path of fd when it is under the prefix (into out), else 0. */
static size_t tracked_path(int fd, char *out, size_t cap) {
  if (journal < 0) {
    return 0;
  }
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, out, cap - 1);
  if (n <= 0) {
    return 0;
  }
  out[n] = '\0';
  return strncmp(out, prefix, strlen(prefix)) == 0 ? (size_t)n : 0;
}

static void put(const void *bytes, size_t n) {
  const char *p = bytes;
  while (n > 0) {
    const ssize_t w = write(journal, p, n);
    if (w <= 0) {
      abort(); /* a journal that cannot be written makes the test meaningless */
    }
    p += w;
    n -= (size_t)w;
  }
}

static void record_head(char type, const char *path, uint32_t path_len) {
  put(&type, 1);
  put(&path_len, 4);
  put(path, path_len);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  char path[PATH_MAX];
  const size_t path_len = tracked_path(fd, path, sizeof path);
  if (path_len == 0) {
    return real_pwrite64(fd, buf, count, offset);
  }
  pthread_mutex_lock(&lock);
  struct stat st;
  fstat(fd, &st);
  char *old = malloc(count > 0 ? count : 1);
  ssize_t got = pread(fd, old, count, offset);
  if (got < 0) {
    got = 0;
  }
  record_head('W', path, (uint32_t)path_len);
  const uint64_t off = (uint64_t)offset;
  const uint64_t old_size = (uint64_t)st.st_size;
  const uint32_t len = (uint32_t)got;
  put(&off, 8);
  put(&old_size, 8);
  put(&len, 4);
  put(old, (size_t)got);
  free(old);
  const ssize_t written = real_pwrite64(fd, buf, count, offset);
  pthread_mutex_unlock(&lock);
  return written;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  return pwrite64(fd, buf, count, (off64_t)offset);
}

static int synced(int fd, int (*real)(int)) {
  char path[PATH_MAX];
  const size_t path_len = tracked_path(fd, path, sizeof path);
  pthread_mutex_lock(&lock);
  if (path_len > 0 && fail_sync_after >= 0 && syncs_seen++ >= fail_sync_after) {
    pthread_mutex_unlock(&lock);
    errno = EIO;
    return -1;
  }
  const int rc = real(fd);
  if (rc == 0 && path_len > 0) {
    record_head('S', path, (uint32_t)path_len);
  }
  pthread_mutex_unlock(&lock);
  return rc;
}

int fsync(int fd) {
  return synced(fd, real_fsync);
}

int fdatasync(int fd) {
  return synced(fd, real_fdatasync);
}
