/* Prints its working directory (`cwd: ...`), for the default-cwd tests: under
 * lldb-dap, a launch without `cwd` otherwise runs in the adapter's own directory. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char dir[4096];
    if (getcwd(dir, sizeof dir) == NULL) {
        return 1;
    }
    printf("cwd: %s\n", dir);
    return 0;
}
