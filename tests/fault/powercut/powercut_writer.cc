// powercut_writer FILE OP...: runs file operations on FILE for
// powercut_test, then ends as the last OP says. OPs, in order:
//   w:TEXT     write TEXT at the file position
//   p:OFF:TEXT pwrite TEXT at byte OFF
//   t:LEN      ftruncate to LEN bytes
//   s          fdatasync (prints "sync failed: <error>" when it fails)
//   kill       SIGKILL itself (the power cut)
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const int fd = open(argv[1], O_RDWR | O_CREAT, 0644);
  if (fd < 0) return 3;
  for (int i = 2; i < argc; ++i) {
    const std::string op = argv[i];
    if (op.rfind("w:", 0) == 0) {
      if (write(fd, op.data() + 2, op.size() - 2) != static_cast<ssize_t>(op.size() - 2)) return 4;
    } else if (op.rfind("p:", 0) == 0) {
      const size_t colon = op.find(':', 2);
      const std::string text = op.substr(colon + 1);
      if (pwrite(fd, text.data(), text.size(), std::atol(op.c_str() + 2)) != static_cast<ssize_t>(text.size())) return 4;
    } else if (op.rfind("t:", 0) == 0) {
      if (ftruncate(fd, std::atol(op.c_str() + 2)) != 0) return 4;
    } else if (op == "s") {
      if (fdatasync(fd) != 0) std::printf("sync failed: %s\n", std::strerror(errno));
    } else if (op == "kill") {
      std::fflush(stdout);
      kill(getpid(), SIGKILL);
    } else {
      return 2;
    }
  }
  return close(fd) == 0 ? 0 : 5;
}
