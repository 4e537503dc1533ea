// examples/hello.c as a C++ program: the standard API from C++ (built by
// tests/install/run.sh with oshc++, pkg-config and CMake).
#include <shmem.h>
#include <cstdio>
#include <vector>

static int from_left = -1;   // global: symmetric on the CPU target

int main()
{
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  std::vector<char> name(SHMEM_MAX_NAME_LEN);
  shmem_info_get_name(name.data());
  std::printf("Hello from PE %d of %d (%s, C++)\n", me, n, name.data());
  shmem_int_p(&from_left, me, (me + 1) % n);
  shmem_barrier_all();
  const int expect = (me + n - 1) % n;
  if (from_left != expect) {
    std::printf("PE %d: expected %d from the left, got %d\n", me, expect, from_left);
    shmem_global_exit(1);
  }
  if (me == 0) std::printf("ring of %d PEs: ok\n", n);
  shmem_finalize();
  return 0;
}
